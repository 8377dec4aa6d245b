// Why: the command tree is the one declaration of every command: this walks it and checks that
// help, the parser and the implementations agree with it: every command's help (from `--help`
// and `help <command>`) is its declaration's, every option the help forms and examples name is
// declared, every example parses (through the command's own argument parser where it has one),
// an unknown option is refused with the command's usage, exit 1 and code USAGE, and no
// implementation reads an option, or builds an option table, that the tree does not declare.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArguments, stringOption } from '../src/args.js';
import { parseBranchArguments } from '../src/commands/branch-args.js';
import { parseInitArguments } from '../src/commands/init-args.js';
import { parseMcpArguments } from '../src/commands/mcp-args.js';
import { parseMemoriesArguments } from '../src/commands/memories-args.js';
import { parseSearchArguments } from '../src/commands/search-args.js';
import { parseSyncArguments } from '../src/commands/sync-args.js';
import { parseUpdateArguments } from '../src/commands/update-args.js';
import { helpText, optionLabel } from '../src/tree/help.js';
import { parseCommand } from '../src/tree/parse-command.js';
import { ROOT } from '../src/tree/root.js';
import type { CommandDecl } from '../src/tree/types.js';
import { cli, jsonOf } from './in-process.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const tree = await Promise.all(ROOT.map(async (entry) => ({ entry, decl: await entry.declaration() })));
const declOf = (name: string): CommandDecl => {
  const found = tree.find((node) => node.entry.name === name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found.decl;
};

/** Split a command line like a POSIX shell would for the examples (quotes, no expansions). */
function words(line: string): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Long options (`--name`) named in a text. */
function optionsNamed(text: string): string[] {
  return [...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => match[1] as string);
}

/** The command's own argument parser, where it has a pure one (stricter than the generic checks). */
const OWN_PARSERS: Readonly<Record<string, (argv: readonly string[]) => unknown>> = {
  update: (argv) => parseUpdateArguments(argv),
  search: (argv) => parseSearchArguments(argv, {}),
  init: (argv) => parseInitArguments(argv),
  memories: (argv) => parseMemoriesArguments(argv),
  sync: (argv) => parseSyncArguments(argv, { GITHUB_REPOSITORY: 'acme/shop' }),
  mcp: (argv) => parseMcpArguments(argv, {}),
  history: (argv) => parseBranchArguments('history', argv),
  checkpoint: (argv) => parseBranchArguments('checkpoint', argv),
  bootstrap: (argv) => parseBranchArguments('bootstrap', argv),
  mount: (argv) => parseBranchArguments('mount', argv),
  commit: (argv) => parseBranchArguments('commit', argv),
  push: (argv) => parseBranchArguments('push', argv),
  state: (argv) => parseBranchArguments('state', argv),
};

describe('the command tree', () => {
  it('names each command once, and each declaration is the one its root entry names', () => {
    const names = ROOT.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { entry, decl } of tree) expect(decl.name).toBe(entry.name);
  });

  it.each(tree.map((node) => [node.entry.name, node.decl] as const))(
    '%s: declaration is complete and consistent',
    (name, decl) => {
      expect(decl.usage.length).toBeGreaterThan(0);
      expect(decl.examples.length, `${name} has examples`).toBeGreaterThan(0);
      const declared = new Set([...Object.keys(decl.options), 'help']);
      for (const [option, spec] of Object.entries(decl.options)) {
        expect(spec.description.trim(), `--${option} has a description`).not.toBe('');
        expect(option).toMatch(/^[a-z][a-z0-9-]*$/);
        if (spec.choices !== undefined) expect(spec.choices.length).toBeGreaterThan(0);
        if (spec.multiple === true) expect(spec.type).toBe('string');
      }
      for (const option of decl.common ?? []) expect(declared, `common --${option}`).toContain(option);
      const subcommands = decl.subcommands ?? [];
      expect(new Set(subcommands.map((sub) => sub.name)).size).toBe(subcommands.length);
      for (const sub of subcommands) {
        expect(sub.summary.trim()).not.toBe('');
        for (const option of sub.options ?? []) expect(declared, `${name} ${sub.name} --${option}`).toContain(option);
        for (const option of optionsNamed(sub.usage ?? ''))
          expect(declared, `${name} ${sub.name} names --${option}`).toContain(option);
      }
      for (const line of decl.usage) {
        for (const option of optionsNamed(line)) expect(declared, `${name} usage names --${option}`).toContain(option);
      }
    },
  );

  it.each(tree.map((node) => [node.entry.name, node.decl] as const))(
    '%s: help lists every option and example',
    (name, decl) => {
      const help = helpText(decl);
      expect(help.startsWith(`Usage: repomem ${name}`)).toBe(true);
      for (const [option, spec] of Object.entries(decl.options)) expect(help).toContain(optionLabel(option, spec));
      expect(help).toContain('-h, --help');
      for (const sub of decl.subcommands ?? []) expect(help).toContain(`  ${sub.name}`);
      for (const example of decl.examples) expect(help).toContain(`repomem ${example.command}`);
      for (const line of help.split('\n')) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(130);
    },
  );

  it.each(
    tree.flatMap((node) => node.decl.examples.map((example) => [node.entry.name, example.command, node.decl] as const)),
  )('%s: example "%s" parses', (name, command, decl) => {
    const [first, ...argv] = words(command);
    expect(first).toBe(name);
    const args = parseCommand(decl, argv);
    if (decl.subcommands !== undefined) expect(decl.subcommands.map((sub) => sub.name)).toContain(args.subcommand);
    const own = OWN_PARSERS[name];
    if (own !== undefined) expect(() => own(argv)).not.toThrow();
  });

  it('gives each command its typed arguments from the declaration', () => {
    const search = parseCommand(declOf('search') as never, ['--limit', '7', 'flaky', 'test']) as {
      options: Record<string, unknown>;
      positionals: readonly string[];
    };
    expect(search.options).toMatchObject({ limit: 7, snippets: 3, json: false, dir: undefined });
    expect(search.positionals).toEqual(['flaky', 'test']);
    const update = parseCommand(declOf('update') as never, ['add', '--read-only', '--file', 'MEMORY.md', 'x']) as {
      options: Record<string, unknown>;
      subcommand: string | undefined;
    };
    expect(update.subcommand).toBe('add');
    expect(update.options).toMatchObject({ readOnly: true, file: 'MEMORY.md' });
    expect(() => parseCommand(declOf('update'), ['nope'])).toThrow(
      'unknown update subcommand: nope (expected add, replace, remove or daily-append)',
    );
    expect(() => parseCommand(declOf('update'), [])).toThrow(
      'missing update subcommand: add, replace, remove or daily-append',
    );
    expect(() => parseCommand(declOf('memories'), ['get', '--limit', '3'])).toThrow(
      'option --limit does not apply to memories get',
    );
    expect(() => parseCommand(declOf('search'), ['--limit', 'x', 'q'])).toThrow(
      '--limit must be a positive integer (got "x")',
    );
    expect(() => parseCommand(declOf('doctor'), ['extra'])).toThrow('unexpected argument: extra');
  });
});

describe('help and errors come from the tree', () => {
  const cwd = fileURLToPath(new URL('.', import.meta.url));

  it.each(tree.map((node) => [node.entry.name, node.decl] as const))(
    '%s: --help, -h and help <command>',
    async (name, decl) => {
      const expected = helpText(decl);
      for (const argv of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
      ]) {
        const result = await cli(argv, { cwd });
        expect(result, argv.join(' ')).toEqual({ code: 0, stdout: expected, stderr: '' });
      }
    },
  );

  it.each(tree.filter((node) => node.entry.name !== 'help').map((node) => [node.entry.name, node.decl] as const))(
    '%s: an unknown option is a usage error (exit 1) followed by the command help',
    async (name, decl) => {
      const sub = decl.subcommands?.[0]?.name;
      const argv = [name, ...(sub === undefined ? [] : [sub]), '--no-such-option'];
      const result = await cli(argv, { cwd });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`unknown option: --no-such-option\n\n${helpText(decl)}`);
      if (decl.options.json !== undefined) {
        const json = await cli([...argv, '--json'], { cwd });
        expect(json.code).toBe(1);
        expect(jsonOf(json)).toMatchObject({
          ok: false,
          outcome: 'error',
          code: 'USAGE',
          message: 'unknown option: --no-such-option',
        });
      }
    },
  );

  it('reading an option the parse did not declare is a programming error, not a silent undefined', () => {
    const parsed = parseArguments(['--dir', 'x'], { dir: { type: 'string' } });
    expect(stringOption(parsed, 'dir')).toBe('x');
    expect(() => stringOption(parsed, 'ref')).toThrow('option --ref is read but not declared in the command tree');
  });
});

describe('no option outside the tree', () => {
  const files = (dir: string): string[] =>
    readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const source = (file: string): string => readFileSync(join(SRC, file), 'utf8');

  it('builds no option table by hand: every parse uses a declaration (src/tree/decl/)', () => {
    const offenders = files('.')
      .filter((file) => !file.startsWith('tree/') && file !== 'args.ts')
      .filter((file) => /\{\s*type:\s*'(string|boolean)'/.test(source(file)));
    expect(offenders).toEqual([]);
  });

  /** The implementation modules of each command (the branch, transfer and Sepo commands share one). */
  const IMPLEMENTATION: Readonly<Record<string, readonly string[]>> = {
    index: ['commands/index-command.ts', 'commands/index-run.ts'],
    export: ['commands/transfer.ts'],
    import: ['commands/transfer.ts'],
    ...Object.fromEntries(
      ['history', 'checkpoint', 'bootstrap', 'mount', 'commit', 'push', 'state'].map((name) => [
        name,
        ['commands/branch.ts', 'commands/branch-args.ts'],
      ]),
    ),
    ...Object.fromEntries(
      ['bootstrap-branch', 'read-sync-state', 'write-sync-state', 'resolve-policy'].map((name) => [
        name,
        ['sepo/support-commands.ts'],
      ]),
    ),
  };
  const commandFiles = files('commands');
  const implementationOf = (name: string): readonly string[] =>
    IMPLEMENTATION[name] ??
    commandFiles.filter((file) => file === `commands/${name}.ts` || file.startsWith(`commands/${name}-`));
  const sharing = (file: string): string[] =>
    tree.filter((node) => implementationOf(node.entry.name).includes(file)).map((node) => node.entry.name);

  it.each(tree.filter((node) => node.entry.name !== 'help').map((node) => [node.entry.name] as const))(
    '%s: its implementation reads only options the tree declares',
    (name) => {
      const impl = implementationOf(name);
      expect(impl.length, `${name} has implementation modules`).toBeGreaterThan(0);
      for (const file of impl) {
        // A module shared by several commands may read the options of any of them.
        const declared = new Set(['help', ...sharing(file).flatMap((other) => Object.keys(declOf(other).options))]);
        const text = source(file);
        const read = [
          ...[
            ...text.matchAll(
              /\b(?:stringOption|stringOptions|booleanOption|required)\(\s*\w+\s*,\s*'([a-z][a-z0-9-]*)'/g,
            ),
          ].map((m) => m[1]),
          ...[...text.matchAll(/\bvalues\.([a-z][A-Za-z]*)/g)].map((m) => m[1]),
          ...[...text.matchAll(/\bvalues\['([a-z][a-z0-9-]*)'\]/g)].map((m) => m[1]),
        ] as string[];
        for (const option of read) expect(declared, `${file} reads --${option}`).toContain(option);
      }
    },
  );
});
