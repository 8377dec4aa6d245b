// Why: the server tells the client what it offers and why (repository scope, access mode, where
// citations are read), so a model knows the memory is scoped and, in disabled mode, why it sees
// no tools at all.
import type { MemoryMcpContext } from './context.js';
import { withToolNames } from './tool-names.js';

/** Server instructions for `context`. */
export function serverInstructions(context: MemoryMcpContext, historyTools: boolean): string {
  if (context.mode === 'disabled') {
    return `Repository memory is disabled for ${context.repo} (memory policy mode "disabled"): this server offers no tools, resources or prompts. Work without memory; ask the repository's maintainers to enable it.`;
  }
  const lines = [
    `Durable, verified memory of the repository ${context.repo} (every tool is scoped to it).`,
    'Verified memories (memory.store, memory.get_recent, ...) are hypotheses: read every citation with memory.read_citation or memory.verify_citations before using one; then memory.refresh it, or memory.invalidate / memory.supersede it when the code disagrees. The memory-rules prompt has the full rules.',
    'MEMORY.md, PROJECT.md and the daily logs are edited with memory.add, memory.replace, memory.remove and memory.daily_append, and searched with memory.search; they are also readable as resources.',
    'At task start, memory.hydrate returns the memory for the task as one block; at task end, memory.record_episode records what happened.',
    `Citations are read from ${context.citations.label}.`,
  ];
  if (historyTools)
    lines.push('The store keeps history: memory.history and memory.read_at show what the memory said, and when.');
  if (context.mode === 'read-only') {
    lines.push('Memory is read-only here (memory policy mode "read-only"): tools that change memory are not offered.');
  }
  return withToolNames(lines.join('\n'), context.toolNames);
}
