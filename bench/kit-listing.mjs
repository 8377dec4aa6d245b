// Why: the SQLite port of the store kit measured `list()` of 20,019 documents at about 45 ms
// against 31 ms before the port, and a warm search right after a one-document write (the warm
// index re-lists) at 88 ms against 61 ms. This pairs the pre-port build (a built worktree) with
// this checkout's, alternating in one process on the same 20,000 small documents: `list()` p50
// and a warm `searchStore(store, query, { engine })` right after a one-document write.
//   node bench/kit-listing.mjs [baseline checkout, built (default /work/baseline)] [rounds (default 6)] [other built checkout]
// A third checkout (say, this one before a change) is measured alongside, in rotating order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [baseRoot = '/work/baseline', rounds = '6', otherRoot] = process.argv.slice(2);
const here = new URL('..', import.meta.url).pathname;
const dist = (root, pkg) => join(resolve(root), 'packages', pkg, 'dist', 'index.js');
const builds = {};
const roots = [
  ['base', baseRoot],
  ['main', here],
];
if (otherRoot !== undefined) roots.push(['other', otherRoot]);
for (const [name, root] of roots) {
  const core = await import(dist(root, 'core'));
  const sqlite = await import(dist(root, 'store-sqlite'));
  builds[name] = { core, openSqliteStore: sqlite.openSqliteStore };
}

const WORDS = ['thread', 'key', 'merge', 'queue', 'review', 'workflow', 'cache', 'cursor', 'sync', 'retry', 'rate'];
const QUERIES = ['thread key', 'workflow cache', 'rate limit retry', 'merge queue review', 'sync cursor'];
const enc = new TextEncoder();
const documents = [];
for (let i = 0; i < 20_000; i++) {
  const words = Array.from({ length: 6 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
  documents.push({
    kind: 'put',
    path: `mirror/area-${i % 50}/note-${String(i).padStart(5, '0')}.md`,
    content: enc.encode(`# note ${i}\n\n- ${words} number ${i}\n`),
  });
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const names = roots.map(([name]) => name);
const out = Object.fromEntries(names.map((name) => [name, { list: [], afterWrite: [] }]));
for (let round = 0; round < Number(rounds); round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of [...order.slice(round % names.length), ...order.slice(0, round % names.length)]) {
    const { core, openSqliteStore } = builds[name];
    const dir = mkdtempSync(join(tmpdir(), 'kit-listing-'));
    const store = await openSqliteStore({ path: join(dir, 'm.db'), repo: 'bench/kit-listing' });
    await store.write(documents);
    for (let i = 0; i < 3; i++) await store.list(); // warm-up
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      const listed = await store.list();
      out[name].list.push(performance.now() - t);
      if (listed.length !== documents.length) throw new Error(`${name}: listed ${listed.length}`);
    }
    const engine = new core.SearchEngine();
    // Complete the engine's index (as bench/suites/lexical.mjs does), then query after each write.
    for (let pass = 0; pass < 2; pass++) for (const q of QUERIES) await core.searchStore(store, q, { engine });
    for (let i = 0; i < 8; i++) {
      const bullet = `- a bullet about quokka migrations number ${round}-${i}\n`;
      await store.write([{ kind: 'put', path: 'MEMORY.md', content: enc.encode(bullet) }]);
      const t = performance.now();
      await core.searchStore(store, QUERIES[i % QUERIES.length], { engine });
      out[name].afterWrite.push(performance.now() - t);
    }
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const fmt = (x) => x.toFixed(1);
for (const what of ['list', 'afterWrite']) {
  const base = med(out.base[what]);
  const label = what === 'list' ? '`list()` of 20,000 documents' : 'warm search right after a one-document write';
  const others = names
    .slice(1)
    .map((name) => `${name} p50 ${fmt(med(out[name][what]))} ms (${(med(out[name][what]) / base).toFixed(2)}x)`);
  console.log(`${label}: base p50 ${fmt(base)} ms, ${others.join(', ')}; n=${out.base[what].length} each`);
}
