// Why: the README's first command. It shows the main job end to end on the embedded default
// store (SQLite, one file): seed the memory layout, edit bullets with exact outcomes, search it
// through the library and through the `repomem` CLI, then store a verified memory citing this
// repository's own code and recall it (citations re-read through git), and print what it did.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openMemory, openVerifiedMemory } from '@repomem/core';
import { createGitCitationReader } from '@repomem/store-git';
import { openSqliteRecordBackend, openSqliteStore } from '@repomem/store-sqlite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dbArg = process.argv.indexOf('--db');
const db = dbArg > 0 ? process.argv[dbArg + 1] : join(mkdtempSync(join(tmpdir(), 'repomem-demo-')), 'repomem.db');
const repo = 'repomem/demo';
const say = (line = '') => process.stdout.write(`${line}\n`);

say(`repomem demo: embedded SQLite store at ${db} (repository scope ${repo})`);
const store = await openSqliteStore({ path: db, repo });
const memory = openMemory({ store });

const init = await memory.init();
say(`\n1. init: created ${init.created.length} file(s): ${init.created.join(', ') || '(none)'}`);

const steps = [
  ['add', () => memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'Run `pnpm test` before pushing.' })],
  [
    'add',
    () =>
      memory.add({
        file: 'MEMORY.md',
        section: 'Conventions',
        text: 'Workflows stay thin; logic lives in typed CLIs.',
      }),
  ],
  [
    'add (again)',
    () => memory.add({ file: 'MEMORY.md', section: 'conventions', text: '*  Run `pnpm test`   before pushing.' }),
  ],
  [
    'replace',
    () =>
      memory.replace({
        file: 'MEMORY.md',
        section: 'Conventions',
        match: 'PNPM TEST',
        with: 'Run `pnpm test` (build, lint, typecheck, tests) before pushing.',
      }),
  ],
  ['remove', () => memory.remove({ file: 'MEMORY.md', section: 'Conventions', match: 'no such bullet' })],
  [
    'add',
    () => memory.add({ file: 'PROJECT.md', section: 'Goals', text: 'Durable, repository-scoped memory for agents.' }),
  ],
  ['daily-append', () => memory.dailyAppend({ text: 'Ran the repomem demo.' })],
];
say('\n2. bullet edits (outcome of each):');
for (const [name, step] of steps) {
  const outcome = await step();
  const extra = outcome.kind === 'no_match' ? ` (match "${outcome.match}")` : '';
  say(`   ${name.padEnd(13)} -> ${outcome.kind}${extra}  ${outcome.path}`);
}

say('\n3. MEMORY.md now reads:');
say(
  new TextDecoder()
    .decode((await store.get('MEMORY.md'))?.content)
    .trimEnd()
    .split('\n')
    .map((l) => `   | ${l}`)
    .join('\n'),
);

const query = 'pnpm test';
const response = await memory.search(query, { limit: 3 });
say(`\n4. library search "${query}": ${response.results.length} hit(s) over ${response.documentCount} document(s)`);
for (const hit of response.results) {
  say(`   ${hit.path}  score=${hit.score.toFixed(2)}  ${hit.snippets[0]?.text ?? ''}`);
}

const storeSpec = `sqlite:${db}`;
say(`\n5. the same through the CLI: repomem search --store ${storeSpec} --repo ${repo} ${query}`);
const cli = spawnSync(
  process.execPath,
  [join(root, 'packages/cli/bin/repomem.js'), 'search', '--store', storeSpec, '--repo', repo, query],
  { encoding: 'utf8' },
);
say(cli.stdout.trimEnd().replace(/^/gm, '   '));
if (cli.status !== 0) {
  process.stderr.write(cli.stderr);
  process.exit(cli.status ?? 1);
}
await store.close();

// Verified memory: a fact with a citation into this repository, re-read through git before use.
if (existsSync(join(root, '.git'))) {
  const verified = openVerifiedMemory({
    backend: openSqliteRecordBackend({ path: db }),
    citations: createGitCitationReader({ dir: root }),
  });
  // Cite the lines of the engines field as they are in this checkout's HEAD.
  const packageText = readFileSync(join(root, 'package.json'), 'utf8');
  const packageLines = packageText.split('\n');
  const floor = JSON.parse(packageText).engines.node;
  const enginesLine = packageLines.findIndex((line) => line.includes('"engines"')) + 1;
  const stored = await verified.store({
    repo,
    subject: 'Node version',
    fact: `repomem targets Node ${floor} (engines field of the root package.json).`,
    citations: [{ path: 'package.json', line_start: enginesLine, line_end: enginesLine + 1 }],
    reason: 'The toolchain script provisions Node 24 when the system Node is older.',
    created_by: 'demo',
  });
  say(`\n6. verified memory: store -> ${stored.kind}${stored.kind === 'stored' ? ` (${stored.memory.id})` : ''}`);
  const recalled = await verified.recall(repo);
  say(
    `   recall -> ${recalled.memories.length} verified now, ${recalled.invalidated.length} invalidated, ` +
      `${recalled.unverified.length} unverifiable`,
  );
  for (const item of recalled.memories)
    say(`   - ${item.subject}: ${item.fact} [verified ${item.verification_count}x]`);
  const stats = await verified.stats(repo);
  say(`   stats -> active ${stats.byStatus.active}, success rate ${stats.verificationSuccessRate}`);
  await verified.close();
}
say(`\nDone. Try: ./dev pnpm exec repomem search --store ${storeSpec} --repo ${repo} "conventions"`);
