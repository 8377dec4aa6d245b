// Why: until a release, the tarballs of `./dev pack` are how anyone outside this clone installs
// repomem, and the example workflows can take the CLI from them. This installs them as a user
// would, with plain npm into an empty project outside the repository, and with the @repomem
// scope pointed at a closed port, so nothing of repomem can come from a registry (third-party
// dependencies still do, from npm's cache when it has them). Then the `repomem` binary runs
// (including a command on the default SQLite store), every package loads from ESM and from
// CommonJS, and the workflows' "Install repomem" step installs the same folder.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, publishablePackages } from '../scripts/pack.mjs';
import { REPO_ROOT } from './support/repo.js';
import { stepScript } from './support/workflow-step.js';

const exec = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'repomem-pack-'));
const packDir = join(scratch, 'packed');
const project = join(scratch, 'project');
/** This Node first on PATH, so npm's `.bin` shims and npm itself run on it (the floor run too). */
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  // Any request for an @repomem package fails at once instead of reaching a registry.
  'npm_config_@repomem:registry': 'http://127.0.0.1:9/',
  npm_config_fetch_retries: '0',
  npm_config_prefer_offline: 'true',
};

let tarballs: string[] = [];

async function run(file: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  try {
    return await exec(file, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 1 << 24 });
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(
      `${basename(file)} ${args.join(' ')} exited ${failure.code}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    );
  }
}

beforeAll(async () => {
  tarballs = packAll(packDir);
  writeFileSync(
    join(scratch, 'package.json'),
    '{"name":"repomem-pack-scratch","private":true}\n', // keeps npm from walking up to a stray package.json
  );
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{"name":"empty-project","private":true}\n');
  await run('npm', ['install', '--loglevel=error', ...tarballs], project);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('tarballs from ./dev pack installed with plain npm', () => {
  it('are one per publishable package, with workspace:* resolved to versions', () => {
    expect(tarballs.map((file) => basename(file))).toEqual(
      publishablePackages().map((pkg) => `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`),
    );
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@repomem/cli/package.json'), 'utf8'));
    const internal = Object.entries(installed.dependencies ?? {}).filter(([name]) => name.startsWith('@repomem/'));
    expect(internal.length).toBeGreaterThan(0);
    for (const [, range] of internal) expect(range).not.toMatch(/^workspace:/);
  });

  it('give a working repomem binary: --help, and init, update, search on the default SQLite store', async () => {
    const bin = join(project, 'node_modules', '.bin', 'repomem');
    const help = await run(bin, ['--help'], project);
    expect(help.stdout).toMatch(/^Usage: repomem /);
    await run(bin, ['init'], project);
    await run(bin, ['update', 'add', '--file', 'MEMORY.md', '--section', 'Conventions', 'Release from main'], project);
    const found = await run(bin, ['search', '--json', 'release'], project);
    expect(JSON.parse(found.stdout).results.map((hit: { path: string }) => hit.path)).toEqual(['MEMORY.md']);
  });

  it('load from ESM', async () => {
    const script = join(project, 'esm.mjs');
    writeFileSync(
      script,
      [
        "import { openMemory, searchStore } from '@repomem/core';",
        "import { openSqliteStore } from '@repomem/store-sqlite';",
        "import { openDirectoryStore } from '@repomem/store-fs';",
        "import { openGitStore } from '@repomem/store-git';",
        "import { createGitHubCitationReader } from '@repomem/github';",
        "import { runCli } from '@repomem/cli';",
        "import { RepomemStore } from '@repomem/langgraph';",
        "import { repomemTools } from '@repomem/ai-sdk';",
        "const store = await openSqliteStore({ path: 'esm.db', repo: 'acme/app' });",
        "await openMemory({ store }).add({ file: 'MEMORY.md', section: 'Notes', text: 'loaded from ESM' });",
        "const { results } = await searchStore(store, 'ESM');",
        'const graphStore = new RepomemStore({ store });',
        "await graphStore.put(['users', 'u1'], 'prefs', { theme: 'dark' });",
        "const item = await graphStore.get(['users', 'u1'], 'prefs');",
        "const memory = await repomemTools({ store, repo: 'acme/app', mode: 'read-only' });",
        'const tools = Object.keys(memory.tools).sort();',
        'await memory.close();',
        'await store.close();',
        'const kinds = [openDirectoryStore, openGitStore, createGitHubCitationReader, runCli].map((f) => typeof f);',
        'console.log(JSON.stringify({ paths: results.map((hit) => hit.path), kinds, item: item?.value, tools }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], project);
    expect(JSON.parse(stdout)).toEqual({
      paths: ['MEMORY.md'],
      kinds: ['function', 'function', 'function', 'function'],
      item: { theme: 'dark' },
      tools: ['memory_hydrate', 'memory_recall', 'memory_search'],
    });
  });

  it('load from CommonJS', async () => {
    const script = join(project, 'cjs.cjs');
    writeFileSync(
      script,
      [
        "const { createInMemoryStore, openMemory } = require('@repomem/core');",
        "const names = ['@repomem/store-sqlite', '@repomem/store-fs', '@repomem/store-git', '@repomem/github', '@repomem/cli', '@repomem/langgraph', '@repomem/ai-sdk'];",
        'const loaded = names.map((name) => Object.keys(require(name)).length > 0);',
        '(async () => {',
        '  const memory = openMemory({ store: createInMemoryStore() });',
        "  const outcome = await memory.add({ file: 'MEMORY.md', section: 'Notes', text: 'loaded from CommonJS' });",
        '  console.log(JSON.stringify({ kind: outcome.kind, loaded }));',
        '})();',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], project);
    expect(JSON.parse(stdout)).toEqual({ kind: 'added', loaded: [true, true, true, true, true, true, true] });
  });

  it('install through the example workflows\u2019 "Install repomem" step (REPOMEM_CLI = the folder)', async () => {
    const runnerTemp = mkdtempSync(join(scratch, 'runner-'));
    const githubPath = join(runnerTemp, 'github-path');
    writeFileSync(githubPath, '');
    const script = stepScript(join(REPO_ROOT, 'examples/github-actions/agent-run.yml'), 'Install repomem');
    await run('bash', ['-euo', 'pipefail', '-c', script], scratch, {
      REPOMEM_CLI: packDir,
      RUNNER_TEMP: runnerTemp,
      GITHUB_PATH: githubPath,
    });
    const added = readFileSync(githubPath, 'utf8').trim();
    const help = await run(join(added, 'repomem'), ['memories', '--help'], scratch);
    expect(help.stdout).toContain('Subcommands:');
  });
});
