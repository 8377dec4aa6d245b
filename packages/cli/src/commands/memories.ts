// Why: `repomem memories ...`: thin wiring from a parsed request to core's verified-memory
// service over the chosen store's record backend, with a citation reader for the operations that
// read code; all wording and exit codes live in format/memories-output.ts.
import {
  type CitationReader,
  checkMemoryImpact,
  type LearnedOn,
  openVerifiedMemory,
  resolveLearnedOn,
  type VerifiedMemoryBackend,
  type VerifiedMemoryService,
} from '@repomem/core';
import { type ChosenCitationSource, chooseCitationSource, openCitationSource } from '../citation-source.js';
import { writeReport } from '../command-report.js';
import {
  describeChange,
  describeGet,
  describeImpact,
  describeMemoryList,
  describeRecall,
  describeStats,
  describeStoreOutcome,
  describeSupersede,
  describeVerifyOne,
  type MemoriesReport,
} from '../format/memories-output.js';
import type { CliIo } from '../io.js';
import { openChosenSet } from '../open-chosen-set.js';
import { openRecordBackend } from '../open-verified.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { MEMORIES } from '../tree/decl/memories.js';
import type { CommandRunner } from '../tree/types.js';
import { workingBranch } from '../working-branch.js';
import { type MemoriesAction, memoriesRequestOf } from './memories-args.js';
import { isBranchAction, runBranchAction } from './memories-branch.js';

/** The citation source an action reads, or `undefined` when it reads no code. */
async function sourceOf(action: MemoriesAction, io: CliIo): Promise<ChosenCitationSource | undefined> {
  switch (action.kind) {
    case 'store':
    case 'supersede':
    case 'verify':
      return chooseCitationSource(action.source, action.ref, io);
    case 'impact':
    case 'promote':
      return chooseCitationSource(action.source, undefined, io);
    case 'recent':
    case 'search':
      // Branch scope asks the repository's history (at `--ref`) which memories this branch contains.
      return chooseCitationSource(undefined, action.ref, io);
    default:
      return undefined;
  }
}

/** What `runAction` works with: the service, and for `impact` the backend and reader it wraps. */
interface MemoriesContext {
  readonly service: VerifiedMemoryService;
  readonly backend: VerifiedMemoryBackend;
  readonly citations: CitationReader | undefined;
  /**
   * The branch reads are scoped to when `--ref` is not given (`$GITHUB_HEAD_REF`, `$GITHUB_REF`);
   * `undefined`: the citation reader's current branch.
   */
  readonly branch: string | undefined;
  /** The environment (`GITHUB_SHA`, `GITHUB_HEAD_REF`, `GITHUB_REF`: where a new memory was learned). */
  readonly env: CliIo['env'];
}

/**
 * Where a memory stored now was learned: `--commit`, else the commit the citation source reads
 * (HEAD, or `--ref`), else `$GITHUB_SHA`; the branch the source is on (`--ref` when it names
 * one), else `$GITHUB_HEAD_REF`/`$GITHUB_REF`. Nothing is recorded when no commit and branch are
 * found (the default branch's scope).
 */
async function learnedOnFor(
  context: MemoriesContext,
  repo: string,
  commit: string | undefined,
): Promise<{ learned_on?: LearnedOn }> {
  const resolved = await resolveLearnedOn({
    repo,
    env: context.env,
    ...(commit === undefined ? {} : { commit }),
    ...(context.citations === undefined ? {} : { history: context.citations }),
  });
  return resolved.kind === 'learned' ? { learned_on: resolved.learnedOn } : {};
}

/** `{ branch }` when no `--ref` names the branch (an explicit `--ref` wins over the environment). */
function scopeOf(ref: string | undefined, branch: string | undefined): { branch?: string } {
  return ref !== undefined || branch === undefined ? {} : { branch };
}

/** The scope of a read at `--ref` (as verify passes it), else of the working branch. */
function readScope(ref: string | undefined, branch: string | undefined): { ref?: string; branch?: string } {
  return { ...(ref === undefined ? {} : { ref }), ...scopeOf(ref, branch) };
}

async function runAction(
  context: MemoriesContext,
  repo: string,
  action: Exclude<MemoriesAction, { kind: 'promote' | 'quarantine' | 'quarantined' | 'delete-quarantined' }>,
  source: string,
): Promise<MemoriesReport> {
  const { service, backend, citations, branch } = context;
  switch (action.kind) {
    case 'store':
      return describeStoreOutcome(
        await service.store({
          ...(await learnedOnFor(context, repo, action.commit)),
          repo,
          subject: action.subject,
          fact: action.fact,
          citations: [...action.citations],
          ...(action.reason === undefined ? {} : { reason: action.reason }),
          ...(action.scope === undefined ? {} : { scope: action.scope }),
          ...(action.createdBy === undefined ? {} : { created_by: action.createdBy }),
        }),
      );
    case 'recent':
      return describeMemoryList(repo, await service.getRecent(repo, action.limit, readScope(action.ref, branch)));
    case 'search':
      return describeMemoryList(
        repo,
        await service.search(repo, action.query, action.limit, readScope(action.ref, branch)),
      );
    case 'get':
      return describeGet(repo, action.id, await service.get(repo, action.id));
    case 'verify':
      if ('id' in action.target) {
        return describeVerifyOne(
          repo,
          source,
          await service.verify(repo, action.target.id, action.ref, scopeOf(action.ref, branch)),
        );
      }
      return describeRecall(
        repo,
        source,
        await service.recall(repo, {
          limit: action.target.limit,
          ...(action.ref === undefined ? {} : { ref: action.ref }),
          ...scopeOf(action.ref, branch),
        }),
      );
    case 'invalidate':
      return describeChange(repo, 'invalidated', await service.invalidate(repo, action.id, action.reason));
    case 'supersede': {
      // The corrected memory keeps the previous subject and scope unless new ones are given.
      const previous = await service.get(repo, action.id);
      const subject = action.subject ?? previous?.subject ?? action.fact.slice(0, 200);
      const scope = action.scope ?? previous?.scope ?? undefined;
      return describeSupersede(
        repo,
        await service.supersede(repo, action.id, {
          ...(await learnedOnFor(context, repo, action.commit)),
          subject,
          fact: action.fact,
          citations: [...action.citations],
          ...(action.reason === undefined ? {} : { reason: action.reason }),
          ...(scope === undefined ? {} : { scope }),
          ...(action.createdBy === undefined ? {} : { created_by: action.createdBy }),
        }),
      );
    }
    case 'stats':
      return describeStats(await service.stats(repo));
    case 'impact':
      if (citations === undefined) throw new Error('memories impact opened no citation source');
      return describeImpact(
        source,
        await checkMemoryImpact({ backend, reader: citations, repo, base: action.base, head: action.head }),
      );
  }
}

/** Run `repomem memories <argv...>`; returns the exit code. */
export const runMemoriesCommand: CommandRunner = commandRunner(
  MEMORIES,
  async (args, io) => {
    const request = memoriesRequestOf(args);
    const repo = chooseRepo(request.repo, io);
    const source = await sourceOf(request.action, io);
    const chosen = await chooseStore({ store: request.store }, io);
    const citations = source === undefined ? undefined : await openCitationSource(source, repo);
    if (isBranchAction(request.action)) {
      // Verified memories and task records move together: one open of the store serves both.
      const set = await openChosenSet(chosen, { repo, readOnly: false });
      let report: MemoriesReport;
      try {
        report = await runBranchAction(
          request.action,
          { repo, verified: await set.verified(), tasks: await set.tasks(), citations },
          io,
        );
      } finally {
        await set.close();
      }
      return writeReport(report, io, request.json);
    }
    const backend = await openRecordBackend(chosen, repo);
    let service: VerifiedMemoryService;
    try {
      service = openVerifiedMemory({ backend, ...(citations === undefined ? {} : { citations }) });
    } catch (error) {
      await backend.close();
      throw error;
    }
    let report: MemoriesReport;
    try {
      report = await runAction(
        { service, backend, citations, branch: workingBranch(io.env), env: io.env },
        repo,
        request.action,
        source?.label ?? '',
      );
    } finally {
      await service.close();
    }
    return writeReport(report, io, request.json);
  },
  { subcommand: 'own' },
);
