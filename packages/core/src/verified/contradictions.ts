// Why: seed 004's contradiction rule ("newest wins within a scope, different scopes coexist")
// decides which memories a new one replaces; keeping the rule in one small module lets `store`,
// `supersede` and the after-write reconciliation apply exactly the same comparison.
import { scopeKey, subjectKey, type VerifiedMemory } from './record.js';

/** The contradiction key of a memory: its subject key and scope key. */
export interface ContradictionKey {
  /** {@link subjectKey} of the subject. */
  readonly subject: string;
  /** {@link scopeKey} of the scope (`null` = whole repository). */
  readonly scope: string | null;
}

/** The contradiction key of `memory` (or of a subject and scope). */
export function contradictionKey(memory: {
  readonly subject: string;
  readonly scope?: string | null;
}): ContradictionKey {
  return { subject: subjectKey(memory.subject), scope: scopeKey(memory.scope) };
}

/**
 * True when `memory` is active and has the same subject key and the same scope key as `key`.
 * Any record with a status, subject and scope qualifies (task-memory knowledge records too).
 */
export function contradicts(
  memory: Pick<VerifiedMemory, 'subject' | 'scope'> & { readonly status: string },
  key: ContradictionKey,
): boolean {
  return (
    memory.status === 'active' && subjectKey(memory.subject) === key.subject && scopeKey(memory.scope) === key.scope
  );
}

/** Order by creation: `created_at`, then `id`; positive when `a` is newer. */
export function compareCreation(a: VerifiedMemory, b: VerifiedMemory): number {
  return Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The most recently created of `memories`, or `undefined` when empty. */
export function newestCreated(memories: readonly VerifiedMemory[]): VerifiedMemory | undefined {
  let newest: VerifiedMemory | undefined;
  for (const memory of memories) if (newest === undefined || compareCreation(memory, newest) > 0) newest = memory;
  return newest;
}
