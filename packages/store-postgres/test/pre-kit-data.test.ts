// Why: the store now runs on core's store kit, over the same tables. A database written by the
// release before the port must open and read identically: the fixture holds the rows that
// release wrote (by its own build, see fixtures/pre-kit-store.gen.test.ts) and the answers it
// gave; they are loaded verbatim into a schema at version 1 and read with the current code, then
// written on with the versions the old release handed out.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';
import { MIGRATIONS } from '../src/migrations.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields, withSuperuser } from './support.js';

interface Fixture {
  readonly rows: {
    readonly meta: { key: string; value: string }[];
    readonly repos: { repo: string; revision: string }[];
    readonly documents: {
      repo: string;
      path: string;
      version: string;
      size: number;
      content: string;
      words: string | null;
      searchable_length: number | null;
      unindexed: boolean;
    }[];
    readonly state: { repo: string; key: string; value: string; version: string }[];
  };
  readonly answers: {
    readonly list: unknown;
    readonly documents: { path: string; version: string; hex: string }[];
    readonly state: unknown;
    readonly candidates: unknown;
    readonly revision: string;
  };
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/pre-kit-store.json', import.meta.url), 'utf8')) as Fixture;
const utf8 = new TextEncoder();
const query = {
  kind: 'lexical' as const,
  terms: [
    { text: 'pnpm', prefix: false },
    { text: 'deploy', prefix: true },
  ],
  prefix: '',
};

describe.skipIf(noServer)(
  `postgres data written before the store kit${skipReason === '' ? '' : ` — ${skipReason}`}`,
  () => {
    let database = '';
    beforeAll(async () => {
      database = await freshDatabase('pre_kit_read');
    });

    it('opens, reads, searches and writes on exactly as the pre-port release left it', async () => {
      const schema = freshSchema();
      const { rows } = fixture;
      await withSuperuser(database, async (client) => {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query((MIGRATIONS[0] as (s: string) => string)(`"${schema}"`));
        for (const row of rows.meta) {
          await client.query(`INSERT INTO "${schema}".repomem_meta (key, value) VALUES ($1, $2)`, [row.key, row.value]);
        }
        for (const row of rows.repos) {
          await client.query(`INSERT INTO "${schema}".repos (repo, revision) VALUES ($1, $2)`, [
            row.repo,
            row.revision,
          ]);
        }
        for (const row of rows.documents) {
          await client.query(
            `INSERT INTO "${schema}".documents (repo, path, version, size, content, words, searchable_length, unindexed)
           VALUES ($1, $2, $3, $4, decode($5, 'hex'), $6::tsvector, $7, $8)`,
            [row.repo, row.path, row.version, row.size, row.content, row.words, row.searchable_length, row.unindexed],
          );
        }
        for (const row of rows.state) {
          await client.query(`INSERT INTO "${schema}".state (repo, key, value, version) VALUES ($1, $2, $3, $4)`, [
            row.repo,
            row.key,
            row.value,
            row.version,
          ]);
        }
      });

      const store = await openPostgresStore({ ...superuserFields(database), schema, repo: 'acme/rocket' });
      try {
        const { answers } = fixture;
        expect(await store.list()).toEqual(answers.list);
        const documents = (await store.readAll()).map((doc) => ({
          path: doc.path,
          version: doc.version,
          hex: Buffer.from(doc.content).toString('hex'),
        }));
        expect(documents).toEqual(answers.documents);
        const many = await store.getMany(answers.documents.map((doc) => doc.path));
        expect(many.map((doc) => doc?.version)).toEqual(answers.documents.map((doc) => doc.version));
        expect(await store.state.list()).toEqual(answers.state);
        expect(await store.searchCandidates(query)).toEqual(answers.candidates);
        expect(await store.revision()).toBe(answers.revision);

        // The versions the old release handed out are still the ones compare-and-swap checks.
        const memory = answers.documents.find((doc) => doc.path === 'MEMORY.md');
        const written = await store.write([
          {
            kind: 'put',
            path: 'MEMORY.md',
            content: utf8.encode('# Memory\n\n## Conventions\n- Deploy with pnpm deploy\n'),
            expectedVersion: memory?.version ?? null,
          },
        ]);
        expect(written.status).toBe('committed');
        const cursor = (await store.state.get('sync/cursor'))?.version;
        expect((await store.state.put('sync/cursor', { page: 4 }, cursor ?? null)).status).toBe('committed');
        const after = await store.searchCandidates(query);
        expect(after.status === 'candidates' && after.candidates.map((hit) => hit.path)).toEqual([
          'MEMORY.md',
          'daily/2026-05-01.md',
          'data/config.json',
        ]);
        expect(await store.revision()).not.toBe(answers.revision);
      } finally {
        await store.close();
      }
      const other = await openPostgresStore({ ...superuserFields(database), schema, repo: 'acme/other' });
      try {
        expect((await other.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
        expect(new TextDecoder().decode((await other.get('MEMORY.md'))?.content)).toBe('- another repository\n');
      } finally {
        await other.close();
      }
    });
  },
);
