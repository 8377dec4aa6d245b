// Why: an item is kept as one JSON document a person can read in the memory tree (and repomem's
// search reads field by field): its value and when it was created and last updated. The document
// comes back from a store another program may have edited, so it is parsed with a schema and a
// malformed one fails with `INVALID_DOCUMENT` naming its path.
import { RepomemError } from '@repomem/core';
import { z } from 'zod';

/** The stored form of an item. */
export const ItemDocumentSchema = z.object({
  /** The namespace, as given (the path is what identifies the item; this is for readers). */
  namespace: z.array(z.string()),
  key: z.string(),
  value: z.record(z.string(), z.json()),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

/** A parsed item document. */
export type ItemDocument = z.infer<typeof ItemDocumentSchema>;

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** Bytes of an item document: pretty JSON (one field a line, so git diffs stay readable), ending in a newline. */
export function serializeItem(document: ItemDocument): Uint8Array {
  return encoder.encode(`${JSON.stringify(document, null, 2)}\n`);
}

/** Parse the bytes of the item document at `path`; throws `INVALID_DOCUMENT`. */
export function parseItem(path: string, content: Uint8Array): ItemDocument {
  let data: unknown;
  try {
    data = JSON.parse(decoder.decode(content));
  } catch (error) {
    throw new RepomemError('INVALID_DOCUMENT', `${path} is not a JSON item document`, {
      details: { path },
      cause: error,
    });
  }
  const parsed = ItemDocumentSchema.safeParse(data);
  if (!parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `${path} is not a LangGraph item: ${z.prettifyError(parsed.error)}`, {
      details: { path },
    });
  }
  return parsed.data;
}

/** Check that a value LangGraph asks to store is a JSON object (what `BaseStore.put` accepts). */
export function checkValue(value: unknown, where: string): Record<string, z.core.util.JSONType> {
  let json: unknown;
  try {
    // What JSON keeps of it (undefined fields dropped, dates as strings), as a JSON store keeps it.
    json =
      value === null || typeof value !== 'object' || Array.isArray(value)
        ? undefined
        : JSON.parse(JSON.stringify(value));
  } catch {
    json = undefined;
  }
  const parsed = z.record(z.string(), z.json()).safeParse(json);
  if (!parsed.success) {
    throw new RepomemError('INVALID_ARGUMENT', `the value of ${where} must be a JSON object`, {
      details: { where },
    });
  }
  return parsed.data;
}
