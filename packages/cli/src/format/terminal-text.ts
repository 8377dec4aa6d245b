// Why: memory text is written by agents and may carry control characters (an ANSI escape that
// recolours, clears or retitles the terminal, a carriage return that hides a line). Everything the
// CLI prints goes through this filter, which writes such characters as visible `\uXXXX` escapes.
// Tab and line feed pass through. JSON output stays exact: JSON.stringify already escapes C0
// controls, and a DEL or C1 control inside a JSON string written as `\u009b` parses back to
// the same string.
import type { CliWritable } from '../io.js';

/** C0 controls except tab and line feed, DEL, and C1 controls. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** `text` with every terminal control character written as a `\uXXXX` escape. */
export function escapeTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A writable that escapes terminal control characters in everything written to `target`. */
export function terminalSafe(target: CliWritable): CliWritable {
  return { write: (chunk: string) => target.write(escapeTerminalControls(String(chunk))) };
}
