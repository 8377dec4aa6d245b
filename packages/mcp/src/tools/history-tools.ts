// Why: "what did the memory say, and when?": on stores that keep past revisions (git), the
// agent can list revisions and read a document as it was, to reason about its own past state.
import {
  decodeMemoryText,
  type HistoryEntry,
  normalizeDocumentPath,
  RepomemError,
  type StoreHistory,
} from '@repomem/core';
import { HistoryInput, HistoryOutput, ReadAtInput, ReadAtOutput } from '../schemas/history.js';
import { INTERNAL_PREFIX, scopedDocumentPath } from '../scope.js';
import { defineTool, type ToolEntry } from './define.js';

const DEFAULT_HISTORY_LIMIT = 20;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function revisionOutput(entry: HistoryEntry) {
  return {
    revision: entry.revision,
    time: entry.time.toISOString(),
    message: entry.message,
    body: entry.body,
    trailers: { ...entry.trailers },
    author: entry.author,
    parents: [...entry.parents],
  };
}

/** A revision id, or an ISO time (a `Date`). */
function historyPoint(at: string): string | Date {
  if (!ISO_TIME.test(at)) return at;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw new RepomemError('INVALID_ARGUMENT', `invalid time ${JSON.stringify(at)}`);
  return date;
}

/** `memory.history` and `memory.read_at` over a store's history. */
export function historyTools(history: StoreHistory): ToolEntry[] {
  return [
    defineTool({
      name: 'memory.history',
      title: 'Memory history',
      description:
        'Past revisions of the memory, newest first (optionally only those that changed one document), with message, author, time and trailers.',
      input: HistoryInput,
      output: HistoryOutput,
      writes: false,
      idempotent: true,
      async run({ path, limit }) {
        // The same scope as resources: no revision that only touched repomem's own records.
        const entries = await history.log({
          limit: limit ?? DEFAULT_HISTORY_LIMIT,
          ...(path === undefined
            ? { hidePrefix: INTERNAL_PREFIX }
            : { path: scopedDocumentPath(normalizeDocumentPath(path)) }),
        });
        return { revisions: entries.map(revisionOutput) };
      },
    }),
    defineTool({
      name: 'memory.read_at',
      title: 'Read a document as it was',
      description:
        'A memory document as of a revision or a time: "found" (with its text), "absent" at that revision, or "no_revision" (before the first revision).',
      input: ReadAtInput,
      output: ReadAtOutput,
      writes: false,
      idempotent: true,
      async run({ path, at }) {
        const normalized = scopedDocumentPath(normalizeDocumentPath(path));
        const result = await history.readAt(normalized, historyPoint(at));
        if (result.status === 'no_revision') return { status: 'no_revision' as const, path: normalized };
        if (result.status === 'absent') {
          return { status: 'absent' as const, path: normalized, revision: revisionOutput(result.revision) };
        }
        return {
          status: 'found' as const,
          path: normalized,
          revision: revisionOutput(result.revision),
          text: decodeMemoryText(result.document.content, normalized),
        };
      },
    }),
  ];
}
