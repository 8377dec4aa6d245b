// Why: the README's first command. It shows the main job end to end on the embedded default
// store (today a memory directory in the Sepo layout): seed a tree, edit bullets with exact
// outcomes, search it through the library and through the `repomem` CLI, and print what it did.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDirectoryStore, openMemory } from '@repomem/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dirArg = process.argv.indexOf('--dir');
const dir = dirArg > 0 ? process.argv[dirArg + 1] : mkdtempSync(join(tmpdir(), 'repomem-demo-'));
const say = (line = '') => process.stdout.write(`${line}\n`);

say(`repomem demo: memory tree at ${dir}`);
const store = await openDirectoryStore({ root: dir, create: true });
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
  readFileSync(join(dir, 'MEMORY.md'), 'utf8')
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

say(`\n5. the same through the CLI: repomem search --dir ${dir} ${query}`);
const cli = spawnSync(process.execPath, [join(root, 'packages/cli/bin/repomem.js'), 'search', '--dir', dir, query], {
  encoding: 'utf8',
});
say(cli.stdout.trimEnd().replace(/^/gm, '   '));
if (cli.status !== 0) {
  process.stderr.write(cli.stderr);
  process.exit(cli.status ?? 1);
}
await store.close();
say(`\nDone. Try: node_modules/.bin/repomem search --dir ${dir} "conventions"`);
