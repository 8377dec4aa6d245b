// Why: the memory facade is what agents and the CLI call: it enforces the access mode, validates
// arguments before touching the store, runs the pure bullet operations on the current text and
// writes the result with optimistic concurrency (re-running on conflict), so every backend gets
// identical semantics and no concurrent update is lost.
import { RepomemError } from '../errors.js';
import { assertDailyDate, assertMemoryFile, assertSectionName, dailyLogPath, utcDate } from '../markdown/arguments.js';
import { normalizeMatch, requireBullet } from '../markdown/bullet.js';
import { addBullet, dailyAppendBullet, removeBullet, replaceBullet } from '../markdown/operations.js';
import type { MemoryMode } from '../policy/memory-policy.js';
import { SearchEngine } from '../search/engine.js';
import { searchStore } from '../search/search-store.js';
import type { SearchOptions, SearchResponse } from '../search/types.js';
import { type MemoryStore, STORE_SPECIFICATION_VERSION, type WriteMetadata } from '../store/contract.js';
import { normalizeDocumentPath } from '../store/paths.js';
import { editDocument } from './edit-document.js';
import type { UpdateOutcome } from './outcomes.js';
import { seedMemoryTree } from './seed-tree.js';
import { decodeMemoryText } from './text-codec.js';
import type {
  AddInput,
  DailyAppendInput,
  InitResult,
  Memory,
  OpenMemoryOptions,
  RemoveInput,
  ReplaceInput,
} from './types.js';

/** Default number of re-runs after a write conflict. */
export const DEFAULT_MAX_CONFLICT_RETRIES = 50;

const MODES: readonly MemoryMode[] = ['enabled', 'read-only', 'disabled'];

/**
 * Open the memory facade over a store.
 * Throws `INVALID_ARGUMENT` for an unknown mode or a bad retry count, and `UNSUPPORTED` for a
 * store implementing another contract version.
 */
export function openMemory(options: OpenMemoryOptions): Memory {
  const { store } = options;
  if (store?.specificationVersion !== STORE_SPECIFICATION_VERSION) {
    throw new RepomemError(
      'UNSUPPORTED',
      `store implements contract version ${String(store?.specificationVersion)}, expected ${STORE_SPECIFICATION_VERSION}`,
    );
  }
  const mode = options.mode ?? 'enabled';
  if (!MODES.includes(mode)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `mode must be one of ${MODES.join(', ')} (got ${JSON.stringify(mode)})`,
      {
        details: { mode },
      },
    );
  }
  const retries = options.maxConflictRetries ?? DEFAULT_MAX_CONFLICT_RETRIES;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new RepomemError('INVALID_ARGUMENT', `maxConflictRetries must be a non-negative integer (got ${retries})`);
  }
  return new MemoryFacade(store, mode, options.clock ?? (() => new Date()), retries, options.writeMetadata);
}

class MemoryFacade implements Memory {
  readonly store: MemoryStore;
  readonly mode: MemoryMode;
  readonly #clock: () => Date;
  readonly #retries: number;
  readonly #metadata: WriteMetadata | undefined;
  #engine: SearchEngine | undefined;

  constructor(
    store: MemoryStore,
    mode: MemoryMode,
    clock: () => Date,
    retries: number,
    metadata: WriteMetadata | undefined,
  ) {
    this.store = store;
    this.mode = mode;
    this.#clock = clock;
    this.#retries = retries;
    this.#metadata = metadata;
  }

  async add(input: AddInput): Promise<UpdateOutcome> {
    this.#assertWritable('add');
    assertMemoryFile(input.file);
    assertSectionName(input.section);
    requireBullet(input.text, 'text');
    return this.#edit(input.file, (source) => addBullet(source, input));
  }

  async replace(input: ReplaceInput): Promise<UpdateOutcome> {
    this.#assertWritable('replace');
    assertMemoryFile(input.file);
    assertSectionName(input.section);
    normalizeMatch(input.match);
    requireBullet(input.with, 'with');
    return this.#edit(input.file, (source) => replaceBullet(source, input));
  }

  async remove(input: RemoveInput): Promise<UpdateOutcome> {
    this.#assertWritable('remove');
    assertMemoryFile(input.file);
    assertSectionName(input.section);
    normalizeMatch(input.match);
    return this.#edit(input.file, (source) => removeBullet(source, input));
  }

  async dailyAppend(input: DailyAppendInput): Promise<UpdateOutcome> {
    this.#assertWritable('dailyAppend');
    const date = input.date ?? utcDate(this.#clock());
    assertDailyDate(date);
    requireBullet(input.text, 'text');
    return this.#edit(dailyLogPath(date), (source) => dailyAppendBullet(source, { text: input.text, date }));
  }

  async search(query: string, options?: SearchOptions): Promise<SearchResponse> {
    this.#assertEnabled('search');
    this.#engine ??= new SearchEngine();
    return searchStore(this.store, query, { ...options, engine: this.#engine });
  }

  async readText(path: string): Promise<string | undefined> {
    this.#assertEnabled('readText');
    const normalized = normalizeDocumentPath(path);
    const document = await this.store.get(normalized);
    if (document === undefined) return undefined;
    const text = decodeMemoryText(document.content, normalized);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  }

  async init(): Promise<InitResult> {
    this.#assertWritable('init');
    return seedMemoryTree(this.store, this.#writeMetadata('chore(memory): initialise memory tree'), this.#retries);
  }

  #edit(path: string, operation: Parameters<typeof editDocument>[2]): Promise<UpdateOutcome> {
    return editDocument(this.store, path, operation, {
      maxConflictRetries: this.#retries,
      metadata: (outcome) => this.#writeMetadata(commitMessage(outcome)),
    });
  }

  #writeMetadata(message: string): WriteMetadata {
    return { ...this.#metadata, message: this.#metadata?.message ?? message };
  }

  #assertEnabled(operation: string): void {
    if (this.mode === 'disabled') {
      throw new RepomemError('MEMORY_DISABLED', `memory is disabled for this run; ${operation} is not available`, {
        details: { operation, mode: this.mode },
      });
    }
  }

  #assertWritable(operation: string): void {
    this.#assertEnabled(operation);
    if (this.mode === 'read-only') {
      throw new RepomemError(
        'READ_ONLY',
        `memory is read-only for this run; ${operation} would write, so it was refused`,
        {
          details: { operation, mode: this.mode },
        },
      );
    }
  }
}

/** Commit message for a write, e.g. `chore(memory): add bullet to MEMORY.md`. */
export function commitMessage(outcome: UpdateOutcome): string {
  switch (outcome.kind) {
    case 'added':
      return `chore(memory): add bullet to ${outcome.path}`;
    case 'replaced':
      return `chore(memory): replace bullet in ${outcome.path}`;
    case 'collapsed':
      return `chore(memory): collapse duplicate bullet in ${outcome.path}`;
    case 'removed':
      return `chore(memory): remove bullet from ${outcome.path}`;
    default:
      return `chore(memory): update ${outcome.path}`;
  }
}
