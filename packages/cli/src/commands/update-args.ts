// Why: turns `repomem update ...` arguments into a request (pure, no I/O), with Sepo's flags,
// defaults and error messages, so parsing is unit-tested apart from the disk. It only checks what
// Sepo reports as usage (a missing option or text, a `--file` outside core's list); the memory
// facade validates the values themselves (section, bullet text, match) once, before any write.
import { MEMORY_FILES, type MemoryFile } from '@repomem/core';
import { booleanOption, type OptionSpecs, parseArguments, stringOption } from '../args.js';
import { CliUsageError } from '../errors.js';
import { UPDATE } from '../tree/decl/update.js';
import { optionSpecsOf } from '../tree/help.js';

/** The bullet operations of `repomem update`. */
export type UpdateSubcommand = 'add' | 'replace' | 'remove' | 'daily-append';

const SUBCOMMANDS: readonly UpdateSubcommand[] = ['add', 'replace', 'remove', 'daily-append'];

/** Options accepted by `repomem update`. */
export const UPDATE_OPTIONS: OptionSpecs = optionSpecsOf(UPDATE);

/** A validated `repomem update` invocation. */
export type UpdateRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly dir: string | undefined;
      /** `--store` spec. */
      readonly store: string | undefined;
      /** `--repo` slug (scopes the SQLite document store). */
      readonly repo: string | undefined;
      readonly json: boolean;
      readonly readOnly: boolean;
      readonly operation: UpdateOperation;
    };

/** The bullet operation to run, with exactly the fields it needs. */
export type UpdateOperation =
  | { readonly kind: 'add'; readonly file: MemoryFile; readonly section: string; readonly text: string }
  | {
      readonly kind: 'replace';
      readonly file: MemoryFile;
      readonly section: string;
      readonly match: string;
      readonly with: string;
    }
  | { readonly kind: 'remove'; readonly file: MemoryFile; readonly section: string; readonly match: string }
  | { readonly kind: 'daily-append'; readonly text: string };

function isSubcommand(value: string): value is UpdateSubcommand {
  return (SUBCOMMANDS as readonly string[]).includes(value);
}

function isMemoryFile(value: string): value is MemoryFile {
  return (MEMORY_FILES as readonly string[]).includes(value);
}

/**
 * Parse the arguments after `update`. The first positional is the subcommand; the remaining
 * positionals joined with one space (trimmed) are the bullet text. Throws CliUsageError with
 * Sepo's messages (`--file is required for add`, `bullet text is required for add`...).
 */
export function parseUpdateArguments(argv: readonly string[]): UpdateRequest {
  const parsed = parseArguments(argv, UPDATE_OPTIONS);
  if (booleanOption(parsed, 'help')) return { help: true };

  const rawFile = stringOption(parsed, 'file');
  if (parsed.values.file !== undefined && (rawFile === undefined || !isMemoryFile(rawFile))) {
    throw new CliUsageError(`--file must be MEMORY.md or PROJECT.md (got ${JSON.stringify(parsed.values.file)})`);
  }
  const file = rawFile as MemoryFile | undefined;

  const [first, ...rest] = parsed.positionals;
  if (first === undefined) {
    throw new CliUsageError('missing update subcommand: add, replace, remove or daily-append');
  }
  if (!isSubcommand(first)) {
    throw new CliUsageError(`unknown update subcommand: ${first} (expected add, replace, remove or daily-append)`);
  }
  const text = rest.join(' ').trim();
  const section = stringOption(parsed, 'section');
  const match = stringOption(parsed, 'match');
  const withText = stringOption(parsed, 'with');

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
      throw new CliUsageError(`${what} is required for ${first}`);
    }
    return value;
  };

  let operation: UpdateOperation;
  switch (first) {
    case 'add':
      operation = {
        kind: 'add',
        file: need(file, '--file'),
        section: need(section, '--section'),
        text: need(text, 'bullet text'),
      };
      break;
    case 'replace':
      operation = {
        kind: 'replace',
        file: need(file, '--file'),
        section: need(section, '--section'),
        match: need(match, '--match'),
        with: need(withText, '--with'),
      };
      break;
    case 'remove':
      operation = {
        kind: 'remove',
        file: need(file, '--file'),
        section: need(section, '--section'),
        match: need(match, '--match'),
      };
      break;
    case 'daily-append':
      operation = { kind: 'daily-append', text: need(text, 'bullet text') };
      break;
  }
  return {
    help: false,
    dir: stringOption(parsed, 'dir'),
    store: stringOption(parsed, 'store'),
    repo: stringOption(parsed, 'repo'),
    json: booleanOption(parsed, 'json'),
    readOnly: booleanOption(parsed, 'read-only'),
    operation,
  };
}
