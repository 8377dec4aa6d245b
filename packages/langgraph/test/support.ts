// Why: the stores every behaviour test runs on: core's in-memory store, the embedded SQLite store
// and the directory store, each fresh and closed after the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, type MemoryStore } from '@repomem/core';
import { openDirectoryStore } from '@repomem/store-fs';
import { openSqliteStore } from '@repomem/store-sqlite';

/** A named way to open a fresh store. */
export interface StoreKind {
  readonly name: string;
  open(): Promise<{ store: MemoryStore; dispose(): Promise<void> }>;
}

function scratch(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'repomem-langgraph-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'memory',
    async open() {
      const store = createInMemoryStore();
      return { store, dispose: () => store.close() };
    },
  },
  {
    name: 'sqlite',
    async open() {
      const { dir, remove } = scratch();
      const store = await openSqliteStore({ path: join(dir, 'repomem.db'), repo: 'acme/app' });
      return {
        store,
        async dispose() {
          await store.close();
          remove();
        },
      };
    },
  },
  {
    name: 'dir',
    async open() {
      const { dir, remove } = scratch();
      const store = await openDirectoryStore({ root: join(dir, 'memory'), create: true });
      return {
        store,
        async dispose() {
          await store.close();
          remove();
        },
      };
    },
  },
];
