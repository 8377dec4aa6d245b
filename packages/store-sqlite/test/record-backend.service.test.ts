import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openVerifiedMemory, type TelemetryEvent } from '@repomem/core';
import { createDirectoryCitationReader } from '@repomem/store-fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

let dir: string;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-verified-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe("core's verified-memory service on the sqlite backend (the README example)", () => {
  it('stores, supersedes within a scope, recalls verified memories and keeps telemetry across reopening', async () => {
    await writeFile(join(dir, 'package.json'), '{\n  "scripts": { "test": "vitest run" }\n}\n');
    const file = join(dir, '.repomem', 'memory.db');
    const seen: TelemetryEvent[] = [];
    const memory = openVerifiedMemory({
      backend: openSqliteRecordBackend({ path: file }),
      citations: createDirectoryCitationReader({ root: dir }),
      onEvent: (event) => seen.push(event),
    });
    const first = await memory.store({
      repo: 'acme/rocket',
      subject: 'Test framework',
      fact: 'Tests run with Jest.',
      citations: [{ path: 'package.json', line_start: 2, line_end: 2 }],
    });
    expect(first.kind).toBe('stored');
    const second = await memory.store({
      repo: 'acme/rocket',
      subject: 'test  FRAMEWORK',
      fact: 'Tests run with Vitest; use `pnpm test`.',
      citations: [{ path: 'package.json', line_start: 2, line_end: 2 }],
      created_by: 'coding-agent',
    });
    expect(second.kind === 'stored' && second.superseded.map((m) => m.fact)).toEqual(['Tests run with Jest.']);
    const recalled = await memory.recall('acme/rocket', { limit: 50 });
    expect(recalled.memories.map((m) => m.fact)).toEqual(['Tests run with Vitest; use `pnpm test`.']);
    expect(recalled.invalidated).toEqual([]);
    expect((await memory.search('acme/rocket', 'vitest')).map((m) => m.subject)).toEqual(['test  FRAMEWORK']);
    expect(await memory.search('other/repo', 'vitest')).toEqual([]);
    await memory.close();

    const reopened = openVerifiedMemory({ backend: openSqliteRecordBackend({ path: file, readOnly: true }) });
    const stats = await reopened.stats('acme/rocket');
    expect(stats.byStatus).toMatchObject({ active: 1, superseded: 1 });
    expect(stats.events.created).toBe(2);
    expect(stats.events.verified_valid).toBeGreaterThanOrEqual(1);
    const stored = (await reopened.events('acme/rocket')).map((event) => event.type);
    expect(seen.map((event) => event.type)).toEqual(stored);
    await reopened.close();
  });
});
