// Why: every tool answers the same way: a result the caller must handle (no match, ambiguous,
// rejected...) is structured content, and misuse is a tool error carrying repomem's stable error
// code and message, never a stack trace or a protocol error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RepomemError } from '@repomem/core';

/** The error code a tool error carries for failures that are not repomem errors. */
export const INTERNAL_ERROR_CODE = 'INTERNAL';

/** A successful tool result: the structured value, and the same value as JSON text for older clients. */
export function structuredResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A tool error naming the stable code (`INVALID_ARGUMENT: ...`); the code is also in `_meta`. */
export function errorResult(error: unknown): CallToolResult {
  const code = error instanceof RepomemError ? error.code : INTERNAL_ERROR_CODE;
  const message = error instanceof Error ? error.message : String(error);
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    isError: true,
    _meta: { 'repomem/error-code': code },
  };
}

/** Run a tool body and turn its value or its failure into a tool result. */
export async function runTool(body: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return structuredResult(await body());
  } catch (error) {
    return errorResult(error);
  }
}
