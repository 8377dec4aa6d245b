// Why: search and list-namespaces both start from the items under a folder; they are read here
// in one pass (the store's `readAll` when it has one, else one listing and `getMany`/`get`), and
// documents under the folder that are not items (a README someone added, a foreign file) are
// left out rather than failing the whole operation.
import type { MemoryStore, StoredDocument } from '@repomem/core';
import { type ItemDocument, parseItem } from './item-document.js';
import { parseItemPath } from './paths.js';

/** One item as read from the store. */
export interface StoredItem {
  readonly path: string;
  readonly namespace: string[];
  readonly key: string;
  readonly document: ItemDocument;
}

async function readDocuments(store: MemoryStore, prefix: string, accept: (path: string) => boolean) {
  if (store.readAll !== undefined) {
    const streamed: StoredDocument[] = [];
    const returned = await store.readAll({
      prefix,
      accept: (path) => accept(path),
      each: (document) => {
        streamed.push(document);
      },
    });
    return [...streamed, ...returned];
  }
  const paths = (await store.list(prefix)).map((entry) => entry.path).filter(accept);
  if (store.getMany !== undefined) return store.getMany(paths);
  return Promise.all(paths.map((path) => store.get(path)));
}

/** Paths of every item document under `prefix` (inside the items `folder`), without reading them. */
export async function listItemPaths(store: MemoryStore, folder: string, prefix: string): Promise<string[]> {
  return (await store.list(prefix))
    .map((entry) => entry.path)
    .filter((path) => parseItemPath(folder, path) !== undefined);
}

/** Every item under `prefix` (inside the items `folder`). */
export async function readItems(store: MemoryStore, folder: string, prefix: string): Promise<StoredItem[]> {
  const documents = await readDocuments(store, prefix, (path) => parseItemPath(folder, path) !== undefined);
  const items: StoredItem[] = [];
  for (const document of documents) {
    if (document === undefined) continue;
    const identity = parseItemPath(folder, document.path);
    if (identity === undefined) continue;
    items.push({ path: document.path, ...identity, document: parseItem(document.path, document.content) });
  }
  return items;
}
