// Why: recall must verify citations against a real git repository, with the staleness real code
// has: a deterministic tree of TypeScript-like source files committed with the git CLI
// (`git fast-import`), then a second commit that shifts lines in some files (citations must be
// re-anchored), rewrites half of others (snippets gone) and deletes a few (files gone).
import { createSeededRandom } from '@repomem/core/testing';
import { freshBenchRepository, git } from '../../packages/store-git/bench/git-bench-repo.mjs';
import { buildVocabulary, zipfPicker } from './vocabulary.mjs';

const DIRECTORIES = ['src/api', 'src/client', 'src/server', 'src/cli', 'lib', 'packages/core/src', 'scripts', 'test'];
const HEADER = ['// SPDX-License-Identifier: MIT', '// Copyright (c) the authors.', '// Generated header.', ''];

const pascal = (word) => word.charAt(0).toUpperCase() + word.slice(1);

function sourceLine(random, word, serial) {
  const roll = random.next();
  if (roll < 0.08) return '';
  if (roll < 0.16) return '}';
  if (roll < 0.3) return `// ${word()} ${word()} ${word()} ${word()} (${serial})`;
  if (roll < 0.45)
    return `export function ${word()}${pascal(word())}(${word()}: ${pascal(word())}): ${pascal(word())} {`;
  if (roll < 0.65) return `  const ${word()}${serial} = await ${word()}.${word()}(${word()}, ${serial % 97});`;
  if (roll < 0.8) return `  if (!${word()}) throw new Error('${word()} ${word()} ${serial}');`;
  if (roll < 0.9) return `import { ${word()}${pascal(word())} } from './${word()}-${word()}.js';`;
  return `  return ${word()}.${word()}(${word()}, '${word()}-${serial}');`;
}

/**
 * A deterministic source tree in two commits. `before` are the files of the first commit;
 * `after` maps every path of the second commit to its content; `edits` says which paths the second
 * commit shifted (4 header lines inserted), rewrote (first half replaced) or deleted.
 */
export function generateSourceTree({ seed = 'repomem-citations', files = 200 } = {}) {
  const random = createSeededRandom(seed);
  const word = zipfPicker(random, buildVocabulary(random, 2000), 0.9);
  const paths = new Set();
  while (paths.size < files) paths.add(`${random.pick(DIRECTORIES)}/${word()}-${word()}.ts`);
  let serial = 0;
  const before = [...paths].sort().map((path) => {
    const lines = Array.from({ length: random.int(60, 300) }, () => sourceLine(random, word, ++serial));
    return { path, content: `${lines.join('\n')}\n` };
  });
  const after = new Map();
  const edits = { shifted: [], rewritten: [], deleted: [] };
  for (const file of before) {
    const roll = random.next();
    if (roll < 0.04) {
      edits.deleted.push(file.path);
      continue;
    }
    if (roll < 0.08) {
      const lines = file.content.slice(0, -1).split('\n');
      const half = Math.ceil(lines.length / 2);
      for (let line = 0; line < half; line++) lines[line] = `${sourceLine(random, word, ++serial)} // rewritten`;
      after.set(file.path, `${lines.join('\n')}\n`);
      edits.rewritten.push(file.path);
    } else if (roll < 0.18) {
      after.set(file.path, `${HEADER.join('\n')}\n${file.content}`);
      edits.shifted.push(file.path);
    } else {
      after.set(file.path, file.content);
    }
  }
  return { before, after, edits };
}

function commitHeader(subject, time) {
  return `commit refs/heads/main\ncommitter bench <bench@localhost> ${time} +0000\ndata ${subject.length}\n${subject}\n`;
}

const inline = (path, content) => `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`;

/**
 * Commit `tree` (from {@link generateSourceTree}) to a new repository in a temp directory with one
 * `git fast-import` run: the first commit holds `before`, the second applies the edits. Returns
 * the directory and the commit ids; the caller removes the directory.
 */
export function buildCitationRepository(tree) {
  const dir = freshBenchRepository('repomem-citation-bench-');
  const chunks = [commitHeader('source tree', 1767225600)];
  for (const file of tree.before) chunks.push(inline(file.path, file.content));
  chunks.push(commitHeader('shift, rewrite and delete some files', 1767229200));
  for (const path of tree.edits.deleted) chunks.push(`D ${path}\n`);
  for (const path of [...tree.edits.shifted, ...tree.edits.rewritten]) chunks.push(inline(path, tree.after.get(path)));
  git(dir, ['fast-import', '--quiet'], `${chunks.join('')}\n`);
  const head = git(dir, ['rev-parse', 'HEAD']);
  const first = git(dir, ['rev-parse', 'HEAD~1']);
  const listed = git(dir, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n').length;
  if (listed !== tree.after.size)
    throw new Error(`citation repository holds ${listed} files, expected ${tree.after.size}`);
  return { dir, head, first };
}
