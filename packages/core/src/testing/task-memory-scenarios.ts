// Why: the task-memory life cycle must behave the same on every store, so the seed's
// contradiction scenarios and each row of its error-handling table are one suite a store
// package runs against a real store of its own (SQLite, git, AgentCore...). Failures are
// injected around the real store (its reads or writes throw what an outage or a
// misconfiguration throws); everything else is the store itself.
import type { MemoryStore, StoredDocument, WriteOperation, WriteResult } from '../store/contract.js';
import { createDocumentTaskRecordBackend } from '../tasks/document-backend.js';
import { getEpisode, recordEpisodeOutcome, writeEpisode } from '../tasks/memory/episodes.js';
import { hydrate } from '../tasks/memory/hydrate.js';
import { recordLearnings } from '../tasks/memory/learnings.js';
import { setPreference } from '../tasks/memory/preferences.js';
import type { ConformanceRunner } from './conformance-types.js';

/** Options of {@link runTaskMemoryScenarios}. */
export interface TaskMemoryScenarioOptions<S extends MemoryStore = MemoryStore> {
  /** Label of the top-level group (default: `task memory scenarios`). */
  readonly name?: string;
  /** Test runner functions, e.g. `{ describe, it, expect, beforeEach, afterEach }` from vitest. */
  readonly runner: ConformanceRunner;
  /** A fresh, EMPTY store for every test (closed by the suite). */
  createStore(): Promise<S>;
  /** Clean up after a test (the store is closed already). */
  teardown?(store: S): Promise<void>;
  /** Per-test timeout in ms (default 30000). */
  readonly timeoutMs?: number;
}

/** What an injected fault makes the store do. */
export interface StoreFaults {
  /** Reads (`get`, `list`, `readAll`) throw this while set. */
  readError?: unknown;
  /** The next `writeFailures` writes throw `writeError`. */
  writeFailures?: number;
  /** What failing writes throw. */
  writeError?: unknown;
}

/**
 * `store` with injectable faults: reads throw `faults.readError` while it is set, and the next
 * `faults.writeFailures` writes throw `faults.writeError`. Everything else is the store itself.
 */
export function withStoreFaults(store: MemoryStore, faults: StoreFaults): MemoryStore {
  const read = <T>(action: () => Promise<T>): Promise<T> =>
    faults.readError === undefined ? action() : Promise.reject(faults.readError);
  const wrapped: MemoryStore = {
    specificationVersion: store.specificationVersion,
    name: `${store.name}+faults`,
    capabilities: store.capabilities,
    state: store.state,
    get: (path: string): Promise<StoredDocument | undefined> => read(() => store.get(path)),
    list: (prefix?: string) => read(() => store.list(prefix)),
    write: (operations: readonly WriteOperation[], metadata): Promise<WriteResult> => {
      if ((faults.writeFailures ?? 0) > 0) {
        faults.writeFailures = (faults.writeFailures ?? 0) - 1;
        return Promise.reject(faults.writeError);
      }
      return store.write(operations, metadata);
    },
    revision: () => store.revision(),
    close: () => store.close(),
  };
  return wrapped;
}

const REPO = 'acme/app';
const outage = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
const denied = (): Error =>
  Object.assign(new Error('User is not authorized to perform this action'), { name: 'AccessDeniedException' });

/**
 * Register the task-memory scenarios with a test runner. Groups: contradictions (the seed's
 * "uses Jest" then "migrated to Vitest" resolves to the newer; the same subject in different
 * module scopes coexists; a newer one in the same scope supersedes) and the seed's error table,
 * row by row: load failure at task start (outage: warning, other context kept; bad credentials:
 * reported as an error, never thrown), write failure at task end (retried with backoff up to 3
 * attempts, then given up without failing the task), a redelivered feedback event (recorded
 * once), and the cold start (empty memory is a normal, silent result).
 */
export function runTaskMemoryScenarios<S extends MemoryStore>(options: TaskMemoryScenarioOptions<S>): void {
  const { runner } = options;
  const { describe, expect } = runner;
  const timeout = options.timeoutMs ?? 30_000;
  let current: { store: S; faults: StoreFaults; faulty: MemoryStore } | undefined;
  const setup = () => {
    if (current === undefined) throw new Error('task memory scenarios: no store (creating it failed?)');
    return { ...current, backend: createDocumentTaskRecordBackend(current.faulty) };
  };
  let minute = 0;
  const now = (): Date => new Date(Date.UTC(2026, 3, 1) + minute++ * 60_000);
  const sleep = async (): Promise<void> => {};

  describe(options.name ?? 'task memory scenarios', () => {
    runner.beforeEach(async () => {
      const store = await options.createStore();
      const faults: StoreFaults = {};
      current = { store, faults, faulty: withStoreFaults(store, faults) };
    });
    runner.afterEach(async () => {
      const done = current;
      current = undefined;
      if (done === undefined) return;
      await done.store.close();
      await options.teardown?.(done.store);
    });

    describe('contradictions', () => {
      runner.it(
        'task 10 "uses Jest" then task 25 "migrated to Vitest": only the newer is hydrated',
        async () => {
          const { backend } = setup();
          await recordLearnings({
            backend,
            repo: REPO,
            now,
            taskId: 'task-10',
            learnings: '**[Test framework]:** The team uses Jest for testing.',
          });
          await recordLearnings({
            backend,
            repo: REPO,
            now,
            taskId: 'task-25',
            learnings: '**[Test framework]:** The team migrated to Vitest.',
          });
          const result = await hydrate({ backend, repo: REPO, task: { description: 'add tests for the parser' } });
          expect(result.context.knowledge.map((entry) => entry.fact)).toEqual(['The team migrated to Vitest.']);
          expect(result.status).toBe('ok');
        },
        timeout,
      );

      runner.it(
        'scoped module rules: Redux in src/legacy/ and React Context in src/v2/ coexist; a newer src/v2/ rule supersedes',
        async () => {
          const { backend } = setup();
          await recordLearnings({
            backend,
            repo: REPO,
            now,
            learnings: [
              '**[State management (src/legacy/)]:** Use Redux for state management.',
              '**[State management (src/v2/)]:** Use React Context.',
            ].join('\n'),
          });
          const both = await hydrate({ backend, repo: REPO, task: { description: 'state management' } });
          expect(both.context.knowledge.map((entry) => `${entry.scope}: ${entry.fact}`).sort()).toEqual([
            'src/legacy/: Use Redux for state management.',
            'src/v2/: Use React Context.',
          ]);
          await recordLearnings({
            backend,
            repo: REPO,
            now,
            learnings: '**[State management (src/v2/)]:** Use Zustand stores.',
          });
          const after = await hydrate({ backend, repo: REPO, task: { description: 'state management' } });
          expect(after.context.knowledge.map((entry) => `${entry.scope}: ${entry.fact}`).sort()).toEqual([
            'src/legacy/: Use Redux for state management.',
            'src/v2/: Use Zustand stores.',
          ]);
        },
        timeout,
      );
    });

    describe('error handling', () => {
      runner.it(
        'memory load fails at task start (outage): non-fatal, a warning, the task proceeds without memory',
        async () => {
          const { backend, faults } = setup();
          await recordLearnings({ backend, repo: REPO, now, learnings: '**[CI]:** Integration tests need Docker.' });
          faults.readError = outage();
          const result = await hydrate({ backend, repo: REPO, task: { description: 'fix CI', user: 'bob' } });
          expect(result.status).toBe('degraded');
          expect(result.errors).toEqual([]);
          expect(result.warnings.length).toBeGreaterThan(0);
          expect(result.warnings.every((warning) => warning.category === 'outage')).toBe(true);
          expect(result.markdown).toBe('');
        },
        timeout,
      );

      runner.it(
        'memory load fails with bad credentials: reported as an error even in fail-open mode, never thrown',
        async () => {
          const { backend, faults } = setup();
          faults.readError = denied();
          const result = await hydrate({ backend, repo: REPO, task: { description: 'fix CI' } });
          expect(result.status).toBe('error');
          expect(result.errors.length).toBeGreaterThan(0);
          expect(result.errors.every((error) => error.category === 'configuration')).toBe(true);
        },
        timeout,
      );

      runner.it(
        'memory write fails at task end: retried with backoff, lands on the third attempt',
        async () => {
          const { backend, faults, store } = setup();
          faults.writeFailures = 2;
          faults.writeError = outage();
          const result = await writeEpisode({
            backend,
            repo: REPO,
            now,
            sleep,
            episode: { task_id: 'task-1', status: 'completed' },
          });
          expect(result.kind).toBe('written');
          expect(result.kind === 'written' ? result.attempts : 0).toBe(3);
          const reread = createDocumentTaskRecordBackend(store);
          expect((await getEpisode(reread, REPO, 'task-1'))?.data.status).toBe('completed');
        },
        timeout,
      );

      runner.it(
        'memory write keeps failing: given up after 3 attempts, the task is not affected (no exception)',
        async () => {
          const { backend, faults } = setup();
          faults.writeFailures = 10;
          faults.writeError = outage();
          const result = await writeEpisode({
            backend,
            repo: REPO,
            now,
            sleep,
            episode: { task_id: 'task-1', status: 'failed' },
          });
          expect(result.kind).toBe('failed');
          expect(result.attempts).toBe(3);
          faults.writeFailures = 0;
          expect(await getEpisode(backend, REPO, 'task-1')).toBeUndefined();
        },
        timeout,
      );

      runner.it(
        'feedback event redelivered (the webhook retries): recorded once',
        async () => {
          const { backend } = setup();
          await writeEpisode({
            backend,
            repo: REPO,
            now,
            sleep,
            episode: { task_id: 'task-1', status: 'completed', pr_number: 12 },
          });
          for (let delivery = 0; delivery < 3; delivery += 1) {
            await recordEpisodeOutcome({ backend, repo: REPO, target: { prNumber: 12 }, merged: true, now });
          }
          const episode = await getEpisode(backend, REPO, 'task-1');
          expect(episode?.data.outcome).toBe('positive');
          expect(episode?.revision).toBe(2);
        },
        timeout,
      );

      runner.it(
        'cold start (first tasks on a repository): empty memory is a normal result',
        async () => {
          const { backend } = setup();
          await setPreference({ backend, repo: 'acme/other', user: 'bob', preference: 'I prefer small PRs.', now });
          const result = await hydrate({ backend, repo: REPO, task: { description: 'first task', user: 'bob' } });
          expect(result.status).toBe('ok');
          expect(result.markdown).toBe('');
          expect(result.memoryAvailable).toBe(false);
          expect(result.warnings).toEqual([]);
          expect(result.errors).toEqual([]);
        },
        timeout,
      );
    });
  });
}
