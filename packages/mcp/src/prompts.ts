// Why: the rules an agent follows with verified memory (memories are hypotheses; read every
// citation before use; refresh, invalidate or supersede; store only durable conventions; log
// use) are offered as a prompt, so a client can put them in front of its model in one step.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolNameStyle, withToolNames } from './tool-names.js';

/** Name of the prompt holding the memory rules. */
export const MEMORY_RULES_PROMPT = 'memory-rules';

/** The agent rules for verified memory, as Markdown. */
export const MEMORY_RULES = `## MEMORY RULES

1. **Treat memories as hypotheses, not truth.**
2. **Before using ANY memory:**
   - Read EVERY cited code location using \`memory.read_citation\`
   - Verify the code still matches the memory's fact
   - If ANY citation is missing, outdated, or contradicts:
     - Do NOT use the memory
     - Either \`memory.invalidate\` or \`memory.supersede\` with correction
3. **If memory is valid and useful:**
   - Call \`memory.refresh\` to update timestamp
   - This keeps useful memories ranked higher
4. **When to store memories:**
   - Only store DURABLE conventions or invariants
   - Examples: sync rules, naming conventions, required multi-file edits
   - Do NOT store: temporary workarounds, TODOs, one-time fixes
5. **After applying a memory:**
   - Call \`memory.log_applied\` for telemetry
`;

/** Register the memory-rules prompt (tool names spelled in `style`). */
export function registerMemoryPrompts(server: McpServer, style: ToolNameStyle = 'dotted'): void {
  server.registerPrompt(
    MEMORY_RULES_PROMPT,
    {
      title: 'Memory rules',
      description: 'How an agent must verify, refresh, correct and store repository memories.',
    },
    () => ({
      description: 'Rules for using verified repository memory',
      messages: [{ role: 'user', content: { type: 'text', text: withToolNames(MEMORY_RULES, style) } }],
    }),
  );
}
