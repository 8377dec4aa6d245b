// Why: seed 002's three forensic moments get fixed, greppable commit messages, so `git log
// --grep` and `history()` can find "the session close of agent X" or "what the dream sweep
// promoted": `checkpoint: <note>`, `session-close` (ids in the body) and `promote` (memories
// with scores in the body).
import { RepomemError } from '@repomem/core';
import type { CommitMessage } from './commit-message.js';

/** Input of a session-close commit. */
export interface SessionCloseDetails {
  /** The closing session's id. */
  readonly sessionId: string;
  /** The agent that ran it. */
  readonly agentId: string;
}

/** A memory promoted by a dream sweep, with its score. */
export interface PromotedMemory {
  /** The memory text (one line). */
  readonly text: string;
  /** Its promotion score (a finite number). */
  readonly score: number;
}

function oneLine(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0 || /[\r\n\0]/.test(value)) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a non-empty single line, got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

/** `checkpoint: <note>`. Throws `INVALID_ARGUMENT` for an empty or multi-line note. */
export function checkpointMessage(note: string, trailers?: Readonly<Record<string, string>>): CommitMessage {
  return { subject: `checkpoint: ${oneLine('checkpoint note', note)}`, trailers };
}

/** `session-close` with the session and agent ids in the body (and as `Session-Id`/`Agent-Id` trailers). */
export function sessionCloseMessage(
  details: SessionCloseDetails,
  trailers?: Readonly<Record<string, string>>,
): CommitMessage {
  const sessionId = oneLine('sessionId', details?.sessionId);
  const agentId = oneLine('agentId', details?.agentId);
  return {
    subject: 'session-close',
    body: `Session ${sessionId} of agent ${agentId} closed.`,
    trailers: { ...trailers, 'Session-Id': sessionId, 'Agent-Id': agentId },
  };
}

/** `promote` with one `- <text> (score <n>)` line per promoted memory in the body. */
export function promoteMessage(
  memories: readonly PromotedMemory[],
  trailers?: Readonly<Record<string, string>>,
): CommitMessage {
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
  return {
    subject: 'promote',
    body: `Promoted ${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}:\n${lines.join('\n')}`,
    trailers,
  };
}
