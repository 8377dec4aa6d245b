// Why: three moments of an agent's work get fixed, greppable records in any store that keeps
// history, so "the session close of agent X" or "what the dream sweep promoted" can be found
// later (`git log --grep`, `history.log()`): `checkpoint: <note>`, `session-close` (ids in the
// body and trailers) and `promote` (memories with scores in the body). These are domain rules,
// so they live here once; a store only records the write with its metadata.
import { RepomemError } from '../errors.js';
import type { MemoryStore, WriteMetadata, WriteOperation, WriteResult, WriteSource } from '../store/contract.js';

/** The ids a session-close record names. */
export interface SessionCloseDetails {
  /** The closing session's id (one line). */
  readonly sessionId: string;
  /** The agent that ran it (one line). */
  readonly agentId: string;
}

/** A memory promoted by a dream sweep, with its score. */
export interface PromotedMemory {
  /** The memory text (one line). */
  readonly text: string;
  /** Its promotion score (a finite number). */
  readonly score: number;
}

/** What to record with a moment besides its message. */
export interface MomentOptions {
  /** Documents to write in the same revision (none: a git store records nothing, as there is no change). */
  readonly writes?: readonly WriteOperation[];
  /** Attribution trailers (`Task-Id`, `Thread-Key`...). */
  readonly trailers?: Readonly<Record<string, string>>;
  /** The code commit and branch the moment was reached on. */
  readonly source?: WriteSource;
}

/** Input of {@link recordSessionClose}: the ids plus the moment's writes and trailers. */
export interface SessionCloseInput extends SessionCloseDetails, MomentOptions {}

/** Summary line of a checkpoint record is `checkpoint: <note>`. */
export const CHECKPOINT_MESSAGE_PREFIX = 'checkpoint: ';
/** Summary line of a session-close record. */
export const SESSION_CLOSE_MESSAGE = 'session-close';
/** Summary line of a promotion record. */
export const PROMOTE_MESSAGE = 'promote';

function oneLine(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0 || /[\r\n\0]/.test(value)) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a non-empty single line, got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

function extras(options: MomentOptions | undefined): Pick<WriteMetadata, 'trailers' | 'source'> {
  return {
    ...(options?.trailers === undefined ? {} : { trailers: options.trailers }),
    ...(options?.source === undefined ? {} : { source: options.source }),
  };
}

/** Metadata of a checkpoint: `checkpoint: <note>`. Throws `INVALID_ARGUMENT` for an empty or multi-line note. */
export function checkpointMetadata(note: string, options?: MomentOptions): WriteMetadata {
  return { message: `${CHECKPOINT_MESSAGE_PREFIX}${oneLine('checkpoint note', note)}`, ...extras(options) };
}

/**
 * Metadata of a session close: `session-close`, the ids in the body and as `Session-Id` /
 * `Agent-Id` trailers (which win over trailers of the same name in `options`).
 */
export function sessionCloseMetadata(details: SessionCloseDetails, options?: MomentOptions): WriteMetadata {
  if (details === null || typeof details !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'a session close needs { sessionId, agentId }');
  }
  const sessionId = oneLine('sessionId', details.sessionId);
  const agentId = oneLine('agentId', details.agentId);
  return {
    ...extras(options),
    message: SESSION_CLOSE_MESSAGE,
    body: `Session ${sessionId} of agent ${agentId} closed.`,
    trailers: { ...options?.trailers, 'Session-Id': sessionId, 'Agent-Id': agentId },
  };
}

/** Metadata of a promotion: `promote`, one `- <text> (score <n>)` line per memory in the body. */
export function promotionMetadata(memories: readonly PromotedMemory[], options?: MomentOptions): WriteMetadata {
  if (!Array.isArray(memories) || memories.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'promote needs at least one { text, score } memory');
  }
  const lines = memories.map((memory, index) => {
    const text = oneLine(`memories[${index}].text`, memory?.text);
    if (typeof memory.score !== 'number' || !Number.isFinite(memory.score)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `memories[${index}].score must be a finite number, got ${String(memory.score)}`,
      );
    }
    return `- ${text} (score ${memory.score})`;
  });
  const noun = memories.length === 1 ? 'memory' : 'memories';
  return {
    ...extras(options),
    message: PROMOTE_MESSAGE,
    body: `Promoted ${memories.length} ${noun}:\n${lines.join('\n')}`,
  };
}

function requireHistory(store: MemoryStore, moment: string): void {
  if (store === null || typeof store !== 'object' || typeof store.write !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', `recording a ${moment} needs a MemoryStore`);
  }
  if (store.history === undefined) {
    throw new RepomemError(
      'UNSUPPORTED',
      `the ${store.name} store keeps no history, so a ${moment} record would be lost; use a store with history (git)`,
      { details: { store: store.name } },
    );
  }
}

/**
 * Record a checkpoint: write `options.writes` as one revision whose message is
 * `checkpoint: <note>`. Throws `UNSUPPORTED` on a store without `history`, `INVALID_ARGUMENT`
 * for a bad note; a failed expected version is a `conflict` result, as with `write()`.
 *
 * @example
 * ```ts
 * await recordCheckpoint(store, 'before refactor', { writes: [{ kind: 'put', path: 'MEMORY.md', content }] });
 * ```
 */
export async function recordCheckpoint(
  store: MemoryStore,
  note: string,
  options: MomentOptions = {},
): Promise<WriteResult> {
  requireHistory(store, 'checkpoint');
  return store.write(options.writes ?? [], checkpointMetadata(note, options));
}

/** Record a session close (`session-close`, see {@link sessionCloseMetadata}). Same errors as {@link recordCheckpoint}. */
export async function recordSessionClose(store: MemoryStore, input: SessionCloseInput): Promise<WriteResult> {
  requireHistory(store, 'session close');
  return store.write(input?.writes ?? [], sessionCloseMetadata(input, input));
}

/** Record a dream sweep's promotions (`promote`, see {@link promotionMetadata}). Same errors as {@link recordCheckpoint}. */
export async function recordPromotion(
  store: MemoryStore,
  memories: readonly PromotedMemory[],
  options: MomentOptions = {},
): Promise<WriteResult> {
  requireHistory(store, 'promotion');
  return store.write(options.writes ?? [], promotionMetadata(memories, options));
}
