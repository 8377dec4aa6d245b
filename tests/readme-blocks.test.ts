// Why: a README's TypeScript is the first code a user copies, and it rots silently when an API
// moves. Every ```ts block of every README.md (the root, packages/*, examples) is written to its
// own module under tests/.work/ (inside the repository, so `@repomem/*` resolve to the workspace
// packages and their built types) and type-checked in one strict `tsc --noEmit` run. Blocks
// whose fence says ```ts runnable are also run, each with the Node running the tests in a fresh
// directory that is a git repository with one commit holding a package.json, so a block may
// write files relative to its working directory and cite `package.json` lines in git or the
// working tree. Other blocks (those naming a /path/to/repo, the network or a test server) are
// only type-checked. The guides (docs/*.md) are held to more: every block of theirs is checked,
// whatever its language (guide-blocks.ts: shell blocks run, configuration blocks start the server
// they describe, workflows pass actionlint), and a block of any other language fails.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkJsonBlock,
  checkYamlBlock,
  GUIDE_LANGUAGES,
  type GuideBlock,
  guideBlocksOf,
} from './support/guide-blocks.js';
import { REPO_ROOT, WORK_DIR } from './support/repo.js';

const exec = promisify(execFile);
const blocksDir = join(WORK_DIR, `readme-blocks-${process.pid}`);

/** One fenced TypeScript block of a README. */
interface Block {
  readonly readme: string;
  /** 1-based line of the first code line in the README. */
  readonly line: number;
  readonly code: string;
  readonly runnable: boolean;
  /** The generated module's file name. */
  readonly file: string;
}

function readmeFiles(): string[] {
  const packages = readdirSync(join(REPO_ROOT, 'packages'))
    .sort()
    .map((name) => `packages/${name}/README.md`);
  return ['README.md', ...packages, 'examples/README.md', ...guideFiles()].filter((file) =>
    existsSync(join(REPO_ROOT, file)),
  );
}

/** The guides: every docs/*.md but the reference pages (architecture, the store-writing walkthrough). */
function guideFiles(): string[] {
  const reference = new Set(['architecture.md', 'write-a-store.md']);
  return readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && !reference.has(name))
    .sort()
    .map((name) => `docs/${name}`);
}

/** Every ```ts / ```typescript block of a README, with its flags. */
function blocksOf(readme: string): Block[] {
  const lines = readFileSync(join(REPO_ROOT, readme), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^(\s*)```(ts|typescript)(?:\s+(.*))?$/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const indent = fence[1] ?? '';
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && (lines[end] ?? '').trim() !== '```') {
      body.push((lines[end] ?? '').slice(indent.length));
      end += 1;
    }
    const slug =
      readme
        .replace(/README\.md$/, '')
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/([a-z0-9])$/i, '$1-') || 'root-';
    blocks.push({
      readme,
      line: index + 2,
      code: body.join('\n'),
      runnable: (fence[3] ?? '').split(/\s+/).includes('runnable'),
      file: `${slug}line-${index + 2}.ts`,
    });
    index = end;
  }
  return blocks;
}

const readmes = readmeFiles();
const blocks = readmes.flatMap(blocksOf);
const guides = readmes.filter((file) => file.startsWith('docs/'));
/** A `repomem` command on PATH for the guides' shell blocks: the built CLI. */
const binDir = join(blocksDir, 'bin');

/** A fresh directory that is a git repository with one commit holding a package.json. */
async function freshClone(name: string, origin?: string): Promise<string> {
  const cwd = join(blocksDir, name);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'package.json'), '{\n  "name": "readme-example",\n  "private": true\n}\n');
  const git = (...args: string[]) => exec('git', args, { cwd });
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', 'package.json');
  await git('-c', 'user.name=readme', '-c', 'user.email=readme@localhost', 'commit', '--quiet', '-m', 'init');
  if (origin !== undefined) await git('remote', 'add', 'origin', origin);
  return cwd;
}

/** The environment of a guide's block: none of the variables repomem reads, the built CLI first on PATH. */
function guideEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'GITHUB_REPOSITORY',
    'REPOMEM_STORE',
    'MEMORY_DIR',
    'MEMORY_QUERY',
    'REPOMEM_EMBEDDER',
    'GITHUB_TOKEN',
  ]) {
    delete env[name];
  }
  env.PATH = `${binDir}:${join(process.execPath, '..')}:${env.PATH ?? ''}`;
  return env;
}
/** tsc's diagnostics by generated file name. */
const diagnostics = new Map<string, string[]>();

beforeAll(async () => {
  mkdirSync(blocksDir, { recursive: true });
  writeFileSync(join(blocksDir, 'package.json'), '{"private":true,"type":"module"}\n');
  writeFileSync(
    join(blocksDir, 'tsconfig.json'),
    `${JSON.stringify(
      {
        extends: relative(blocksDir, join(REPO_ROOT, 'tsconfig.base.json')),
        compilerOptions: { noEmit: true, declaration: false, sourceMap: false, noUnusedLocals: false },
        include: ['*.ts'],
      },
      null,
      2,
    )}\n`,
  );
  mkdirSync(binDir, { recursive: true });
  const cli = join(REPO_ROOT, 'packages', 'cli', 'bin', 'repomem.js');
  writeFileSync(
    join(binDir, 'repomem'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`,
  );
  chmodSync(join(binDir, 'repomem'), 0o755);
  for (const block of blocks) {
    // `export {}` keeps each block a module of its own (top-level await, no shared names).
    writeFileSync(join(blocksDir, block.file), `${block.code}\nexport {};\n`);
  }
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const output = await exec(process.execPath, [tsc, '-p', blocksDir, '--pretty', 'false'], {
    cwd: blocksDir,
    encoding: 'utf8',
  }).then(
    (result) => result.stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
  for (const line of output.split('\n')) {
    const match = /^([^(\s]+\.ts)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (match === null) {
      if (line.trim() !== '') diagnostics.set('(tsc)', [...(diagnostics.get('(tsc)') ?? []), line.trim()]);
      continue;
    }
    const file = match[1]?.split('/').pop() ?? '';
    const block = blocks.find((candidate) => candidate.file === file);
    const where = block === undefined ? file : `${block.readme}:${block.line + Number(match[2]) - 1}`;
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), `${where}: ${match[4]}`]);
  }
}, 120_000);

afterAll(() => rmSync(blocksDir, { recursive: true, force: true }));

describe('TypeScript blocks of the READMEs', () => {
  it('exist and tsc itself ran cleanly', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(diagnostics.get('(tsc)') ?? []).toEqual([]);
  });

  describe.each(readmes)('%s', (readme) => {
    const own = blocks.filter((block) => block.readme === readme);
    it(`type-check${own.length === 0 ? ' (no ts blocks)' : ''}`, () => {
      expect(own.flatMap((block) => diagnostics.get(block.file) ?? [])).toEqual([]);
    });

    for (const block of own.filter((candidate) => candidate.runnable)) {
      it(`runs the block at line ${block.line}`, async () => {
        const cwd = await freshClone(`run-${block.file.replace(/\.ts$/, '')}`);
        const javascript = ts.transpileModule(block.code, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
        }).outputText;
        const script = join(cwd, 'block.mjs');
        writeFileSync(script, javascript);
        const result = await exec(process.execPath, [script], { cwd, encoding: 'utf8', env: { ...process.env } }).then(
          () => 'ok',
          (error: { code?: number; stdout?: string; stderr?: string }) =>
            `${block.readme}:${block.line} exited ${error.code}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
        );
        expect(result).toBe('ok');
      });
    }
  });
});

describe('every other block of the guides', () => {
  describe.each(guides)('%s', (guide) => {
    const own: GuideBlock[] = guideBlocksOf(join(REPO_ROOT, guide));

    it('has no block of a language the suite cannot check', () => {
      expect(
        own
          .filter((block) => !GUIDE_LANGUAGES.has(block.language))
          .map((block) => `${guide}:${block.line} ${block.language}`),
      ).toEqual([]);
    });

    for (const block of own.filter((candidate) => candidate.language !== 'ts')) {
      it(`checks the ${block.language} block at line ${block.line}`, async () => {
        const cwd = await freshClone(
          `guide-${guide.replace(/[^a-z0-9]+/gi, '-')}-${block.line}`,
          'https://github.com/acme/app.git',
        );
        const env = guideEnv();
        if (block.language === 'sh') {
          const result = await exec('bash', ['-euo', 'pipefail', '-c', block.code], {
            cwd,
            env,
            encoding: 'utf8',
          }).then(
            () => 'ok',
            (error: { code?: number; stdout?: string; stderr?: string }) =>
              `${guide}:${block.line} exited ${error.code}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
          );
          expect(result).toBe('ok');
        } else if (block.language === 'json') {
          expect(await checkJsonBlock(block.code, { cwd, env })).toEqual([]);
        } else {
          expect(await checkYamlBlock(block.code, `${guide}:${block.line}`, { cwd, env })).toEqual([]);
        }
      });
    }
  });
});
