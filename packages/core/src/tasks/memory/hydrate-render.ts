// Why: the memory block is text an agent reads as part of its system prompt, so its layout is
// fixed and documented (a title, one section per kind in priority order, one line per entry),
// and it goes into the prompt through core's prompt renderer as a `MEMORY_*` variable: inserted
// verbatim (a stored `${VAR}` is never expanded) and left out of the prompt version.
import { type RenderedPrompt, type RenderPromptInput, renderPrompt } from '../../prompt/render-prompt.js';
import { REVIEW_RULES_PREAMBLE } from '../rules/rule-render.js';
import type { ContextSource } from './receipt.js';

/** Variable holding the memory block in a prompt rendered by {@link renderPromptWithMemory}. */
export const MEMORY_CONTEXT_VARIABLE = 'MEMORY_CONTEXT';

/** Section heading of each source in the memory block. */
export function sectionHeading(source: ContextSource, user?: string): string {
  switch (source) {
    case 'rules':
      // The preamble is part of the heading: counted in the budget and never separated from it.
      return `### Review rules\n\n${REVIEW_RULES_PREAMBLE}`;
    case 'verified':
      return '### Verified facts (checked against the code)';
    case 'knowledge':
      return '### Repository knowledge';
    case 'episodes':
      return '### Similar past tasks';
    case 'preferences':
      return `### Preferences of @${user ?? 'the user'}`;
  }
}

/** Title of the memory block for `repo`. */
export function blockTitle(repo: string): string {
  return `## Memory from earlier tasks on ${repo}\n\nNotes kept from earlier work on this repository. They may be out of date: the code is the source of truth.`;
}

/** The memory block: title, then each non-empty section in order. `''` when every section is empty. */
export function renderMemoryBlock(
  repo: string,
  sections: readonly { readonly source: ContextSource; readonly lines: readonly string[] }[],
  user?: string,
): string {
  const parts = sections
    .filter((section) => section.lines.length > 0)
    .map((section) => [sectionHeading(section.source, user), ...section.lines].join('\n'));
  return parts.length === 0 ? '' : [blockTitle(repo), ...parts].join('\n\n');
}

/**
 * Render a prompt with a hydrated memory block: the block becomes the `MEMORY_CONTEXT` variable
 * (inserted verbatim, never expanded) and, unless the input names its own `memoryFragment`, the
 * fragment is just `${MEMORY_CONTEXT}`. `memoryAvailable` follows `memory.memoryAvailable`. The
 * prompt version is the one of the same prompt without memory: memory varies per run.
 */
export function renderPromptWithMemory(
  input: Omit<RenderPromptInput, 'memoryAvailable'>,
  memory: { readonly markdown: string; readonly memoryAvailable: boolean },
): RenderedPrompt {
  return renderPrompt({
    ...input,
    memoryFragment: input.memoryFragment ?? `\${${MEMORY_CONTEXT_VARIABLE}}`,
    memoryAvailable: memory.memoryAvailable,
    variables: { ...(input.variables ?? {}), [MEMORY_CONTEXT_VARIABLE]: memory.markdown },
  });
}
