// Why: the baseline for `repomem update add`: a re-implementation, written from the description
// of Sepo's memory/update.js in reference/sepo-memory.md, of what that tool does for `add` and
// nothing more: read the file, edit it in memory (normalise the bullet, find the `## section`,
// skip an exact duplicate, insert at the end of the section), take `<file>.lock` with O_EXCL
// (5 s timeout, 30 s stale), write a temp file and rename it over the file, release the lock.
// No fsync and no version check (the description names neither). It is one small file with
// no imports beyond node:fs/node:path, so it also stands for "a CLI that loads almost nothing".
//
//   node bench/baseline-sepo-update.mjs add [--dir D] --file MEMORY.md|PROJECT.md --section S <text...>
//
// Exit codes as Sepo's: 0 added or duplicate, 2 section not found, 1 usage errors.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const USAGE =
  'usage: node bench/baseline-sepo-update.mjs add [--dir D] --file MEMORY.md|PROJECT.md --section S <text...>\n';
const LOCK_TIMEOUT_MS = 5_000;
const LOCK_STALE_MS = 30_000;
const LOCK_RETRY_MS = 25;
const TITLES = { 'MEMORY.md': '# Memory', 'PROJECT.md': '# Project' };

function fail(message, code) {
  process.stderr.write(`${message}\n`);
  if (code === 1) process.stderr.write(USAGE);
  process.exit(code);
}

function parseArguments(argv) {
  const [command, ...rest] = argv;
  if (command !== 'add') fail(`unsupported command: ${command ?? '(none)'} (this baseline implements add only)`, 1);
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: Sepo's update reads MEMORY_DIR; the bench runs outside turbo
  const options = { dir: process.env.MEMORY_DIR || process.cwd(), file: undefined, section: undefined };
  const words = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--dir' || arg === '--file' || arg === '--section') {
      const value = rest[++i];
      if (value === undefined) fail(`${arg} needs a value`, 1);
      options[arg.slice(2)] = value;
    } else words.push(arg);
  }
  if (!(options.file in TITLES)) fail(`--file must be MEMORY.md or PROJECT.md, got ${options.file ?? '(none)'}`, 1);
  if (!options.section) fail('--section is required', 1);
  return { ...options, dir: resolve(options.dir), text: words.join(' ') };
}

/** Drop CR, collapse whitespace, trim, strip one leading list marker, prefix `- `. */
function normalizeBullet(text) {
  let body = text.replace(/\r/g, '').replace(/\s+/g, ' ').trim();
  if (/^[-*+](\s|$)/.test(body)) body = body.slice(1).trim();
  return body === '' ? undefined : `- ${body}`;
}

const isBullet = (line) => /^[-*+] /.test(line.trim());

/** The edited text, `undefined` for an exact duplicate in the section, or `null` when the section is missing. */
function addToText(source, file, section, bullet) {
  if (source.trim() === '') return `${TITLES[file]}\n\n## ${section}\n${bullet}\n`;
  const lines = source.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = `## ${section}`;
  const start = lines.findIndex((line) => line.trim() === header);
  if (start === -1) return null;
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith('## ')) {
    if (isBullet(lines[end]) && normalizeBullet(lines[end]) === bullet) return undefined;
    end++;
  }
  // Sepo inserts at the end of the section, after any blank lines that close it.
  lines.splice(end, 0, bullet);
  return `${lines.join('\n').trimEnd()}\n`;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Create `<file>.lock` with O_CREAT|O_EXCL, breaking a lock older than 30 s, waiting at most 5 s. */
function acquireLock(lockPath) {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(lockPath).mtimeMs > LOCK_STALE_MS) {
        unlinkSync(lockPath);
        continue;
      }
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    if (Date.now() >= deadline) fail(`timed out waiting for lock: ${lockPath}`, 1);
    sleep(LOCK_RETRY_MS);
  }
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  const bullet = normalizeBullet(options.text);
  if (bullet === undefined) fail('bullet text is empty', 1);
  const path = join(options.dir, options.file);
  let source = '';
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  const next = addToText(source, options.file, options.section, bullet);
  if (next === null) fail(`section not found: ${options.section} in ${path}`, 2);
  if (next === undefined) {
    process.stdout.write(`no change (duplicate): ${path}\n`);
    return;
  }
  mkdirSync(options.dir, { recursive: true });
  const lockPath = `${path}.lock`;
  acquireLock(lockPath);
  try {
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temp, next);
    renameSync(temp, path);
  } finally {
    unlinkSync(lockPath);
  }
  process.stdout.write(`added bullet to ${path}\n`);
}

main();
