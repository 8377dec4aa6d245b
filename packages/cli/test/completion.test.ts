// Why: the completion scripts are generated from the command tree. bash is run for real: the
// script is sourced and its function called with COMP_WORDS/COMP_CWORD as bash sets them. fish
// answers `complete -C` for real when installed; zsh's script is syntax-checked (`zsh -n`) and its
// function run with the completion builtins stubbed, when installed (else skipped with a notice). Every shell's script is also checked to name every command, subcommand and option
// of the tree (so a command added to the tree appears in completion without more work).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completionScript, loadTree, SHELLS } from '../src/tree/completion.js';
import { cli } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-completion-');
afterAll(() => temp.remove());
const tree = await loadTree();

function installed(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

function scriptFile(shell: (typeof SHELLS)[number]): string {
  const file = join(temp.path, `repomem.${shell}`);
  writeFileSync(file, completionScript(shell, tree));
  return file;
}

describe('repomem completion', () => {
  it.each(SHELLS)('%s: prints the script generated from the tree', async (shell) => {
    const result = await cli(['completion', shell], { cwd: temp.path });
    expect(result).toEqual({ code: 0, stdout: completionScript(shell, tree), stderr: '' });
  });

  it('refuses a missing or unknown shell with usage (exit 1)', async () => {
    const missing = await cli(['completion'], { cwd: temp.path });
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([1, 'missing shell: bash, zsh, fish']);
    const unknown = await cli(['completion', 'tcsh'], { cwd: temp.path });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^unknown shell: tcsh \(expected bash, zsh, fish\)\n\nUsage: repomem completion/);
  });

  it.each(SHELLS)('%s: names every command, subcommand and option of the tree', (shell) => {
    const script = completionScript(shell, tree);
    for (const { name, decl } of tree) {
      expect(script, name).toContain(name);
      for (const sub of decl.subcommands ?? []) expect(script, `${name} ${sub.name}`).toContain(sub.name);
      for (const option of Object.keys(decl.options)) {
        expect(script, `${name} --${option}`).toMatch(
          shell === 'fish' ? new RegExp(`-l ${option}\\b`) : new RegExp(`--${option}\\b`),
        );
      }
    }
  });
});

describe('bash, for real', () => {
  const file = scriptFile('bash');
  /** What the completion function offers for `words`, the cursor on the last word. */
  function complete(...words: string[]): string[] {
    const array = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '-c',
        `source '${file}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _repomem_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8', cwd: temp.path },
    );
    return out.split('\n').filter((line) => line !== '');
  }

  it('completes commands, subcommands, options and option values', () => {
    expect(complete('repomem', 'up')).toEqual(['update']);
    expect(complete('repomem', 'me')).toEqual(['memories']);
    expect(complete('repomem', 'update', '')).toEqual(['add', 'replace', 'remove', 'daily-append']);
    expect(complete('repomem', 'update', 'add', '--fi')).toEqual(['--file']);
    expect(complete('repomem', 'update', 'add', '--file', '')).toEqual(['MEMORY.md', 'PROJECT.md']);
    expect(complete('repomem', 'mcp', '--mode', '')).toEqual(['enabled', 'read-only', 'disabled']);
    expect(complete('repomem', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('repomem', 'help', 'sea')).toEqual(['search']);
  });

  it("offers a subcommand only the options it accepts, and skips leading store options and options' values", () => {
    expect(complete('repomem', '--store', 'sqlite:x.db', 'memories', 'get', '--')).toEqual([
      '--help',
      '--store',
      '--repo',
      '--json',
      '--id',
    ]);
    // `--section add`: "add" is the value of --section, not the subcommand.
    expect(complete('repomem', 'update', '--section', 'add', '')).toEqual(['add', 'replace', 'remove', 'daily-append']);
    expect(complete('repomem', 'gate', 'commit', '--m')).toEqual(['--memory-dir']);
  });

  it('completes paths where a value is a directory', () => {
    mkdirSync(join(temp.path, 'memory-dir'), { recursive: true });
    writeFileSync(join(temp.path, 'memory-file'), '');
    expect(complete('repomem', 'search', '--dir', 'memory-')).toEqual(['memory-dir']);
  });
});

describe('fish and zsh (when installed)', () => {
  const fish = installed('fish');
  const zsh = installed('zsh');
  if (!fish) console.warn('fish is not installed: its completion is checked by structure only');
  if (!zsh) console.warn('zsh is not installed: its completion is checked by structure only');

  it.skipIf(!fish)('fish answers complete -C from the script', () => {
    const file = scriptFile('fish');
    const complete = (line: string): string[] =>
      execFileSync('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line}'`], {
        encoding: 'utf8',
        cwd: temp.path,
      })
        .split('\n')
        .filter((entry) => entry !== '')
        .map((entry) => entry.split('\t')[0] as string);
    expect(complete('repomem upd')).toEqual(['update']);
    expect(complete('repomem update ')).toEqual(['add', 'daily-append', 'remove', 'replace']);
    expect(complete('repomem update add --fi')).toEqual(['--file']);
    expect(complete('repomem update add --file ')).toEqual(['MEMORY.md', 'PROJECT.md']);
    expect(complete('repomem memories get --')).toEqual(
      expect.arrayContaining(['--id', '--json', '--store', '--repo']),
    );
    expect(complete('repomem memories get --')).not.toContain('--cite');
    expect(complete('repomem gate commit --m')).toEqual(['--memory-dir']);
  });

  it.skipIf(!zsh)('zsh parses the script (zsh -n) and its function completes', () => {
    const file = scriptFile('zsh');
    expect(spawnSync('zsh', ['-n', file], { encoding: 'utf8' }).stderr).toBe('');
    // Outside an interactive shell there is no completion system: its builtins are replaced by
    // functions that print what they would offer, and _repomem runs with words/CURRENT/PREFIX as
    // zsh sets them (1-based words, CURRENT the word under the cursor).
    const STUBS = [
      'compdef() { :; }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh parameter expansions, not a template
      '_describe() { local name=${@[-1]} item; for item in ${(P)name}; do print -r -- ${item%%:*}; done; }',
      'compadd() { shift; print -l -- "$@"; }',
      '_files() { print -r -- "<files $*>"; }',
      "_message() { print -r -- '<message>'; }",
    ].join('\n');
    const complete = (...words: string[]): string[] => {
      const prefix = words.at(-1) ?? '';
      const array = words.map((word) => `'${word}'`).join(' ');
      const script = `${STUBS}\nsource '${file}'\nwords=(${array}); CURRENT=${words.length}; PREFIX='${prefix}'; _repomem`;
      return execFileSync('zsh', ['-f', '-c', script], { encoding: 'utf8', cwd: temp.path })
        .split('\n')
        .filter((line) => line !== '');
    };
    expect(complete('repomem', 'update', '')).toEqual(['add', 'replace', 'remove', 'daily-append']);
    expect(complete('repomem', 'update', 'add', '--file', '')).toEqual(['MEMORY.md', 'PROJECT.md']);
    expect(complete('repomem', '--store', 'x', 'memories', 'get', '--')).toEqual([
      '--help',
      '--store',
      '--repo',
      '--json',
      '--id',
    ]);
    expect(complete('repomem', 'update', '--section', 'add', '')).toEqual(['add', 'replace', 'remove', 'daily-append']);
    expect(complete('repomem', 'search', '--dir', '')).toEqual(['<files -/>']);
    expect(complete('repomem', '')).toContain('completion');
  });

  it('zsh: the script is a #compdef function that registers itself when sourced', () => {
    const script = completionScript('zsh', tree);
    expect(script.startsWith('#compdef repomem\n')).toBe(true);
    expect(script).toContain('compdef _repomem repomem');
    expect(script).toContain(String.raw`'update:Edit bullets in MEMORY.md, PROJECT.md or today'\''s daily log'`);
  });
});
