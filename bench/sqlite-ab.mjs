// Why: one-run suite figures on a shared machine are noise-bound; this pairs an earlier build of
// store-sqlite (and its core) with this checkout's, alternating in one process on the same tree:
// the whole tree in one batch, 100 compare-and-swap puts of MEMORY.md, 4 one-shot searches.
//   node bench/sqlite-ab.mjs <earlier checkout, built> <tree directory> [rounds]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const [baseRoot, treeDir, rounds = '3'] = process.argv.slice(2);
const here = new URL('..', import.meta.url).pathname;
const dist = (root, pkg) => join(resolve(root), 'packages', pkg, 'dist', 'index.js');
const builds = {
  base: await import(dist(baseRoot, 'store-sqlite')),
  main: await import(dist(here, 'store-sqlite')),
};
const searchStores = {
  base: (await import(dist(baseRoot, 'core'))).searchStore,
  main: (await import(dist(here, 'core'))).searchStore,
};
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else files.push({ kind: 'put', path: relative(treeDir, full), content: readFileSync(full) });
  }
};
walk(treeDir);
const enc = new TextEncoder();
const dec = new TextDecoder();
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = { base: { load: [], put: [], oneShot: [] }, main: { load: [], put: [], oneShot: [] } };
for (let round = 0; round < Number(rounds); round++) {
  for (const name of round % 2 === 0 ? ['base', 'main'] : ['main', 'base']) {
    const dir = mkdtempSync(join(tmpdir(), 'ab-'));
    const store = await builds[name].openSqliteStore({ path: join(dir, 'm.db'), repo: 'ab/ab' });
    let t = performance.now();
    await store.write(files);
    out[name].load.push(performance.now() - t);
    for (let i = 0; i < 100; i++) {
      t = performance.now();
      const cur = await store.get('MEMORY.md');
      const r = await store.write([
        {
          kind: 'put',
          path: 'MEMORY.md',
          content: enc.encode(`${cur ? dec.decode(cur.content) : ''}- b ${i}\n`),
          expectedVersion: cur?.version ?? null,
        },
      ]);
      if (r.status !== 'committed') throw new Error('conflict');
      out[name].put.push(performance.now() - t);
    }
    for (const q of ['workflow cache', 'thread key', 'rate limit retry', 'quokka']) {
      t = performance.now();
      await searchStores[name](store, q);
      out[name].oneShot.push(performance.now() - t);
    }
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const name of ['base', 'main']) {
  const o = out[name];
  console.log(
    name,
    'load median',
    med(o.load).toFixed(0),
    'ms; CAS put median',
    med(o.put).toFixed(2),
    'ms; one-shot search median',
    med(o.oneShot).toFixed(1),
    'ms',
  );
}
