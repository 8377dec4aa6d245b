// Why: turns the arguments of the git branch commands (history, checkpoint, bootstrap, mount,
// commit, push, state) into validated requests (pure), so their usage errors are pinned by unit tests.
import {
  booleanOption,
  type OptionSpecs,
  type ParsedArguments,
  parseArguments,
  parsePositiveInteger,
  stringOption,
  stringOptions,
} from '../args.js';
import { CliUsageError } from '../errors.js';
import { BOOTSTRAP, CHECKPOINT, COMMIT, HISTORY, MOUNT, PUSH, STATE } from '../tree/decl/branch.js';
import { optionSpecsOf } from '../tree/help.js';

/** The git branch commands. */
export type BranchCommand = 'history' | 'checkpoint' | 'bootstrap' | 'mount' | 'commit' | 'push' | 'state';

/** Options of each branch command: its declaration's. */
export const BRANCH_OPTIONS: Readonly<Record<BranchCommand, OptionSpecs>> = {
  history: optionSpecsOf(HISTORY),
  checkpoint: optionSpecsOf(CHECKPOINT),
  bootstrap: optionSpecsOf(BOOTSTRAP),
  mount: optionSpecsOf(MOUNT),
  commit: optionSpecsOf(COMMIT),
  push: optionSpecsOf(PUSH),
  state: optionSpecsOf(STATE),
};

/** A validated branch command invocation (`help` short-circuits everything). */
export type BranchRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly store: string | undefined;
      readonly json: boolean;
      readonly action: BranchAction;
    };

/** What the command does. */
export type BranchAction =
  | { readonly kind: 'history'; readonly path: string | undefined; readonly limit: number | undefined }
  | {
      readonly kind: 'checkpoint';
      readonly note: string;
      readonly into: string | undefined;
      readonly trailers: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'bootstrap' }
  | { readonly kind: 'mount'; readonly into: string }
  | {
      readonly kind: 'commit';
      readonly into: string;
      readonly message: string | undefined;
      readonly trailers: Readonly<Record<string, string>>;
    }
  /** Sync the branch with a remote: fetch, re-apply local commits on a moved tip, push. */
  | { readonly kind: 'push'; readonly remote: string | undefined; readonly url: string | undefined }
  | { readonly kind: 'state-read'; readonly ref: string; readonly repo: string | undefined }
  | {
      readonly kind: 'state-write';
      readonly ref: string;
      readonly repo: string | undefined;
      /** The state JSON as given (`--state`) or the file to read it from (`--file`). */
      readonly input: { readonly json: string } | { readonly file: string };
      /** `--expected <commit>`, `null` for `--expected none`, `undefined` when absent (the current commit is used). */
      readonly expected: string | null | undefined;
    };

const TRAILER_KEY = /^[A-Za-z][A-Za-z0-9-]*$/;

function trailersOf(parsed: ParsedArguments): Record<string, string> {
  const trailers: Record<string, string> = {};
  for (const raw of stringOptions(parsed, 'trailer')) {
    const equals = raw.indexOf('=');
    const key = equals === -1 ? '' : raw.slice(0, equals).trim();
    const value = equals === -1 ? '' : raw.slice(equals + 1).trim();
    if (!TRAILER_KEY.test(key) || value === '' || /[\r\n]/.test(value)) {
      throw new CliUsageError(`invalid --trailer ${JSON.stringify(raw)}: expected Key=value (e.g. Task-Id=42)`);
    }
    trailers[key] = value;
  }
  return trailers;
}

function requireInto(parsed: ParsedArguments, command: BranchCommand): string {
  const into = stringOption(parsed, 'into');
  if (into === undefined) throw new CliUsageError(`--into <dir> is required for ${command}`);
  return into;
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

function parseStateAction(parsed: ParsedArguments): BranchAction {
  const [sub, ...rest] = parsed.positionals;
  if (sub !== 'read' && sub !== 'write') {
    throw new CliUsageError(
      sub === undefined
        ? 'missing state subcommand: read or write'
        : `unknown state subcommand: ${sub} (expected read or write)`,
    );
  }
  if (rest.length > 0) throw new CliUsageError(`unexpected argument for state ${sub}: ${rest[0]}`);
  const ref = stringOption(parsed, 'ref');
  if (ref === undefined) throw new CliUsageError(`--ref sync|scan|thread:<key> is required for state ${sub}`);
  const repo = stringOption(parsed, 'repo');
  const json = stringOption(parsed, 'state');
  const file = stringOption(parsed, 'file');
  const expectedRaw = stringOption(parsed, 'expected');
  if (sub === 'read') {
    for (const name of ['state', 'file', 'expected']) {
      if (parsed.values[name] !== undefined) throw new CliUsageError(`option --${name} does not apply to state read`);
    }
    return { kind: 'state-read', ref, repo };
  }
  if ((json === undefined) === (file === undefined)) {
    throw new CliUsageError('state write needs exactly one of --state <json> or --file <path>');
  }
  if (expectedRaw !== undefined && expectedRaw !== 'none' && !COMMIT_ID.test(expectedRaw)) {
    throw new CliUsageError(`invalid --expected ${JSON.stringify(expectedRaw)}: a 40-hex commit id, or none`);
  }
  return {
    kind: 'state-write',
    ref,
    repo,
    input: json === undefined ? { file: file as string } : { json },
    expected: expectedRaw === undefined ? undefined : expectedRaw === 'none' ? null : expectedRaw,
  };
}

function noPositionals(parsed: ParsedArguments, command: BranchCommand): void {
  if (parsed.positionals.length > 0) {
    throw new CliUsageError(`unexpected argument for ${command}: ${parsed.positionals[0]}`);
  }
}

/** Parse the arguments after a branch command name. Throws {@link CliUsageError} naming the problem. */
export function parseBranchArguments(command: BranchCommand, argv: readonly string[]): BranchRequest {
  const parsed = parseArguments(argv, BRANCH_OPTIONS[command]);
  if (booleanOption(parsed, 'help')) return { help: true };
  let action: BranchAction;
  switch (command) {
    case 'history': {
      if (parsed.positionals.length > 1)
        throw new CliUsageError(`unexpected argument for history: ${parsed.positionals[1]}`);
      const rawLimit = parsed.values.limit;
      action = {
        kind: 'history',
        path: parsed.positionals[0],
        limit: typeof rawLimit === 'string' ? parsePositiveInteger(rawLimit, '--limit') : undefined,
      };
      break;
    }
    case 'checkpoint': {
      const note = parsed.positionals.join(' ').trim();
      if (note === '') throw new CliUsageError('a checkpoint note is required');
      action = { kind: 'checkpoint', note, into: stringOption(parsed, 'into'), trailers: trailersOf(parsed) };
      break;
    }
    case 'bootstrap':
      noPositionals(parsed, command);
      action = { kind: 'bootstrap' };
      break;
    case 'mount':
      noPositionals(parsed, command);
      action = { kind: 'mount', into: requireInto(parsed, command) };
      break;
    case 'commit':
      noPositionals(parsed, command);
      action = {
        kind: 'commit',
        into: requireInto(parsed, command),
        message: stringOption(parsed, 'message'),
        trailers: trailersOf(parsed),
      };
      break;
    case 'push':
      noPositionals(parsed, command);
      if (stringOption(parsed, 'remote') !== undefined && stringOption(parsed, 'url') !== undefined) {
        throw new CliUsageError('push takes --remote <name> or --url <url>, not both');
      }
      action = { kind: 'push', remote: stringOption(parsed, 'remote'), url: stringOption(parsed, 'url') };
      break;
    case 'state':
      action = parseStateAction(parsed);
      break;
  }
  return { help: false, store: stringOption(parsed, 'store'), json: booleanOption(parsed, 'json'), action };
}
