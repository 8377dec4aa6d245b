// Why: the specification allows dots in tool names and the memory tools keep their published
// `memory.*` names, but some clients (Windsurf, older GitHub Copilot builds) reject any dot. A
// server can be started with underscored names instead (`memory_store`); every text that names a
// tool (descriptions, instructions, the memory-rules prompt) is written with the same style.

/** How tool names are spelled: `memory.store` (default) or `memory_store`. */
export type ToolNameStyle = 'dotted' | 'underscored';

/** The tool styles, for validation. */
export const TOOL_NAME_STYLES: readonly ToolNameStyle[] = ['dotted', 'underscored'];

/** `name` (`memory.store`) in `style`. */
export function toolName(name: string, style: ToolNameStyle): string {
  return style === 'underscored' ? name.replace(/^memory\./, 'memory_') : name;
}

/** `text` with every `memory.<tool>` mention spelled in `style`. */
export function withToolNames(text: string, style: ToolNameStyle): string {
  return style === 'underscored' ? text.replace(/\bmemory\.([a-z_]+)/g, 'memory_$1') : text;
}
