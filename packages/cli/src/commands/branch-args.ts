// Why: turns the typed arguments of the git branch commands (history, checkpoint, bootstrap,
// mount, commit, push, state), parsed with their declarations, into validated requests (pure), so
// their usage errors are pinned by unit tests.
import { CliUsageError } from '../errors.js';
import { BOOTSTRAP, CHECKPOINT, COMMIT, HISTORY, MOUNT, PUSH, STATE } from '../tree/decl/branch.js';
import { asksForHelp } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf, CommandDecl, OptionDecls } from '../tree/types.js';

/** The git branch commands. */
export type BranchCommand = 'history' | 'checkpoint' | 'bootstrap' | 'mount' | 'commit' | 'push' | 'state';

/** The declaration of each branch command. */
export const BRANCH_DECLS: Readonly<Record<BranchCommand, CommandDecl>> = {
  history: HISTORY,
  checkpoint: CHECKPOINT,
  bootstrap: BOOTSTRAP,
  mount: MOUNT,
  commit: COMMIT,
  push: PUSH,
  state: STATE,
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

function trailersOf(given: readonly string[]): Record<string, string> {
  const trailers: Record<string, string> = {};
  for (const raw of given) {
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

function requireInto(into: string | undefined, command: BranchCommand): string {
  if (into === undefined) throw new CliUsageError(`--into <dir> is required for ${command}`);
  return into;
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

function stateAction({
  options,
  subcommand: sub,
  positionals: rest,
  given,
}: ArgsOf<typeof STATE.options>): BranchAction {
  if (sub !== 'read' && sub !== 'write') {
    throw new CliUsageError(
      sub === undefined
        ? 'missing state subcommand: read or write'
        : `unknown state subcommand: ${sub} (expected read or write)`,
    );
  }
  if (rest.length > 0) throw new CliUsageError(`unexpected argument for state ${sub}: ${rest[0]}`);
  const { ref, repo, state: json, file, expected: expectedRaw } = options;
  if (ref === undefined) throw new CliUsageError(`--ref sync|scan|thread:<key> is required for state ${sub}`);
  if (sub === 'read') {
    for (const name of ['state', 'file', 'expected']) {
      if (given.has(name)) throw new CliUsageError(`option --${name} does not apply to state read`);
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

function noPositionals(positionals: readonly string[], command: BranchCommand): void {
  if (positionals.length > 0) {
    throw new CliUsageError(`unexpected argument for ${command}: ${positionals[0]}`);
  }
}

/** The action of each branch command, from the typed arguments of its declaration. */
const ACTIONS: { readonly [C in BranchCommand]: (args: ArgsOf<OptionDecls>) => BranchAction } = {
  history: (args) => {
    const { options, positionals } = args as ArgsOf<typeof HISTORY.options>;
    if (positionals.length > 1) throw new CliUsageError(`unexpected argument for history: ${positionals[1]}`);
    return { kind: 'history', path: positionals[0], limit: options.limit };
  },
  checkpoint: (args) => {
    const { options, positionals } = args as ArgsOf<typeof CHECKPOINT.options>;
    const note = positionals.join(' ').trim();
    if (note === '') throw new CliUsageError('a checkpoint note is required');
    return { kind: 'checkpoint', note, into: options.into, trailers: trailersOf(options.trailer) };
  },
  bootstrap: ({ positionals }) => {
    noPositionals(positionals, 'bootstrap');
    return { kind: 'bootstrap' };
  },
  mount: (args) => {
    const { options, positionals } = args as ArgsOf<typeof MOUNT.options>;
    noPositionals(positionals, 'mount');
    return { kind: 'mount', into: requireInto(options.into, 'mount') };
  },
  commit: (args) => {
    const { options, positionals } = args as ArgsOf<typeof COMMIT.options>;
    noPositionals(positionals, 'commit');
    return {
      kind: 'commit',
      into: requireInto(options.into, 'commit'),
      message: options.message,
      trailers: trailersOf(options.trailer),
    };
  },
  push: (args) => {
    const { options, positionals } = args as ArgsOf<typeof PUSH.options>;
    noPositionals(positionals, 'push');
    if (options.remote !== undefined && options.url !== undefined) {
      throw new CliUsageError('push takes --remote <name> or --url <url>, not both');
    }
    return { kind: 'push', remote: options.remote, url: options.url };
  },
  state: (args) => stateAction(args as ArgsOf<typeof STATE.options>),
};

/**
 * The request of a branch command's typed arguments (parsed with its declaration and
 * `{ subcommand: 'own' }`). Throws {@link CliUsageError} naming the problem.
 */
export function branchRequestOf(
  command: BranchCommand,
  args: ArgsOf<OptionDecls>,
): Extract<BranchRequest, { help: false }> {
  const action = ACTIONS[command](args);
  // Every branch command declares --store and --json.
  const { store, json } = args.options as ArgsOf<typeof BOOTSTRAP.options>['options'];
  return { help: false, store, json, action };
}

/** Parse the arguments after a branch command name (see {@link branchRequestOf}). */
export function parseBranchArguments(command: BranchCommand, argv: readonly string[]): BranchRequest {
  const decl = BRANCH_DECLS[command];
  if (asksForHelp(decl, argv)) return { help: true };
  return branchRequestOf(command, parseCommand(decl, argv, { subcommand: 'own' }));
}
