// Why: every search benchmark runs over the same two trees: a fresh copy of the real Sepo
// fixture tree (never modified in place) and a deterministic generated tree of mirror-like JSON
// files. The generated tree is written once under bench/.corpus/ and reused while its content
// digest matches, because writing 20,000 files costs seconds the benchmark does not measure.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMemoryCorpus, writeCorpusToDirectory } from '@repomem/core/testing';

/** Repository root (the parent of bench/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Scratch space for benchmark trees (gitignored). */
export const CORPUS_DIR = join(REPO_ROOT, 'bench', '.corpus');

const SKIPPED_DIRECTORIES = new Set(['.git', '.hg', '.svn', 'node_modules']);

/** Where the real fixture tree is expected (`$REPOMEM_FIXTURE_TREE` overrides). */
export function fixtureTreeSource() {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: the bench runs outside turbo; no task cache to invalidate
  const override = process.env.REPOMEM_FIXTURE_TREE;
  return override ? resolve(override) : resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'sepo-memory-tree');
}

/** Regular files under `root` as POSIX relative paths, skipping VCS dirs, node_modules and symlinks. */
export function listTreeFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_DIRECTORIES.has(entry.name) || entry.isSymbolicLink()) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(root, full).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** Every file of a tree as `{ path: bytes }`, ready for `createInMemoryStore({ initialDocuments })`. */
export function readTreeDocuments(root) {
  const documents = {};
  for (const path of listTreeFiles(root)) documents[path] = new Uint8Array(readFileSync(join(root, path)));
  return documents;
}

/**
 * Copy the fixture tree to bench/.corpus/fixture-tree (replacing an older copy). Returns
 * `undefined` when the fixture is absent, so callers can skip with a note.
 */
export function prepareFixtureTree() {
  const source = fixtureTreeSource();
  if (!existsSync(source)) return undefined;
  const root = join(CORPUS_DIR, 'fixture-tree');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(CORPUS_DIR, { recursive: true });
  cpSync(source, root, { recursive: true, verbatimSymlinks: true });
  const documents = readTreeDocuments(root);
  const bytes = Object.values(documents).reduce((sum, content) => sum + content.byteLength, 0);
  return {
    name: 'fixture',
    label: 'Sepo fixture tree',
    source,
    root,
    documents,
    files: listTreeFiles(root).length,
    bytes,
  };
}

function digestOf(files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path}\0${file.content}\0`);
  return hash.digest('hex');
}

/**
 * Generate `jsonFiles` mirror files (plus MEMORY/PROJECT/daily/README) with a fixed seed and
 * make sure bench/.corpus/generated-<n> holds exactly them on disk.
 */
export async function prepareGeneratedTree(jsonFiles, seed = 'repomem-bench') {
  const files = generateMemoryCorpus({ seed, jsonFiles });
  const root = join(CORPUS_DIR, `generated-${jsonFiles}`);
  const stampPath = `${root}.stamp.json`;
  const digest = digestOf(files);
  let reused = false;
  try {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
    reused = stamp.digest === digest && existsSync(root) && listTreeFiles(root).length === files.length;
  } catch {
    reused = false;
  }
  if (!reused) {
    rmSync(stampPath, { force: true });
    rmSync(root, { recursive: true, force: true });
    await writeCorpusToDirectory(root, files);
    writeFileSync(stampPath, `${JSON.stringify({ seed, jsonFiles, digest }, null, 2)}\n`);
  }
  const encoder = new TextEncoder();
  const documents = {};
  let bytes = 0;
  for (const file of files) {
    const content = encoder.encode(file.content);
    documents[file.path] = content;
    bytes += content.byteLength;
  }
  return {
    name: `generated-${jsonFiles}`,
    label: `generated tree (${jsonFiles.toLocaleString('en-US')} JSON mirror files)`,
    root,
    documents,
    files: files.length,
    bytes,
    reused,
  };
}
