// Why: turns `repomem memories <subcommand> ...` typed arguments (from its declaration) into a
// validated request (pure, no I/O): each subcommand gets exactly the fields it needs, options that
// do not apply are refused (by the declaration), and ids and citations are checked before any
// store is opened.
import { type Citation, MemoryIdSchema } from '@repomem/core';
import { parseCitationArgument } from '../citation-arg.js';
import { CliUsageError } from '../errors.js';
import { MEMORIES } from '../tree/decl/memories.js';
import { asksForHelp } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf } from '../tree/types.js';

/** The subcommands of `repomem memories`. */
export const MEMORIES_SUBCOMMANDS = [
  'store',
  'recent',
  'search',
  'get',
  'verify',
  'invalidate',
  'supersede',
  'stats',
  'impact',
  'promote',
  'quarantine',
  'quarantined',
  'delete-quarantined',
] as const;
/** One subcommand of `repomem memories`. */
export type MemoriesSubcommand = (typeof MEMORIES_SUBCOMMANDS)[number];

/** Where citations are read (`--source`, `--ref`), as given. */
export interface SourceOptions {
  readonly source: string | undefined;
  readonly ref: string | undefined;
}

/** Where a new memory was learned, as given (`--commit`; the branch comes from `--ref` or the clone). */
export interface LearnedOptions {
  readonly commit: string | undefined;
}

/** The new memory's text and citations (store, supersede). */
export interface MemoryContent {
  /** Absent for supersede: the previous memory's subject is kept. */
  readonly subject: string | undefined;
  readonly fact: string;
  readonly citations: readonly Citation[];
  readonly reason: string | undefined;
  readonly scope: string | undefined;
  readonly createdBy: string | undefined;
}

/** What one `repomem memories` invocation asks for. */
export type MemoriesAction =
  | ({ readonly kind: 'store'; readonly subject: string } & Omit<MemoryContent, 'subject'> &
      SourceOptions &
      LearnedOptions)
  | { readonly kind: 'recent'; readonly limit: number; readonly ref: string | undefined }
  | { readonly kind: 'search'; readonly query: string; readonly limit: number; readonly ref: string | undefined }
  | { readonly kind: 'get'; readonly id: string }
  | ({
      readonly kind: 'verify';
      readonly target: { readonly id: string } | { readonly all: true; readonly limit: number };
    } & SourceOptions)
  | { readonly kind: 'invalidate'; readonly id: string; readonly reason: string }
  | ({ readonly kind: 'supersede'; readonly id: string } & MemoryContent & SourceOptions & LearnedOptions)
  | { readonly kind: 'stats' }
  | {
      readonly kind: 'impact';
      /** The pull request's base revision (where the memories' citations are anchored). */
      readonly base: string;
      /** The revision checked (default `HEAD`). */
      readonly head: string;
      readonly source: string | undefined;
    }
  | {
      readonly kind: 'promote';
      /** The merged pull request's branch. */
      readonly ref: string;
      readonly mergeCommit: string;
      /** The branch it merged into (default: the repository's default branch). */
      readonly into: string | undefined;
      readonly pullRequest: number | undefined;
      readonly source: string | undefined;
    }
  | { readonly kind: 'quarantine'; readonly ref: string; readonly pullRequest: number | undefined }
  | { readonly kind: 'quarantined'; readonly ref: string | undefined }
  | { readonly kind: 'delete-quarantined'; readonly ref: string | undefined; readonly id: string | undefined };

/** A validated `repomem memories` invocation. */
export type MemoriesRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly store: string | undefined;
      readonly repo: string | undefined;
      readonly json: boolean;
      readonly action: MemoriesAction;
    };

function isSubcommand(value: string): value is MemoriesSubcommand {
  return (MEMORIES_SUBCOMMANDS as readonly string[]).includes(value);
}

function checkId(value: string): string {
  const parsed = MemoryIdSchema.safeParse(value);
  if (!parsed.success)
    throw new CliUsageError(`invalid --id ${JSON.stringify(value)}: memory id must be a lowercase UUID`);
  return parsed.data;
}

/**
 * The request of `memories`'s typed arguments (parsed with `{ subcommand: 'own' }`, which refuses
 * the options a declared subcommand does not take). Throws {@link CliUsageError} naming the
 * problem: unknown subcommand, a missing required option, a bad `--id` or `--cite`, or stray
 * positionals.
 */
export function memoriesRequestOf({
  options,
  subcommand: first,
  positionals: rest,
  given,
}: ArgsOf<typeof MEMORIES.options>): Extract<MemoriesRequest, { help: false }> {
  if (first === undefined) throw new CliUsageError(`missing memories subcommand: ${MEMORIES_SUBCOMMANDS.join(', ')}`);
  if (!isSubcommand(first)) {
    throw new CliUsageError(`unknown memories subcommand: ${first} (expected ${MEMORIES_SUBCOMMANDS.join(', ')})`);
  }
  if (first !== 'search' && rest.length > 0) {
    throw new CliUsageError(`unexpected argument for memories ${first}: ${rest[0]}`);
  }
  const need = (value: string | undefined, name: string): string => {
    if (value === undefined || value.trim() === '')
      throw new CliUsageError(`--${name} is required for memories ${first}`);
    return value;
  };
  const sources = (): SourceOptions => ({ source: options.source, ref: options.ref });
  const learned = (): LearnedOptions => ({ commit: options.commit });
  const pullRequest = (): number | undefined => options.pr;
  const content = (): Omit<MemoryContent, 'subject'> => {
    const fact = need(options.fact, 'fact');
    const cites = options.cite;
    if (cites.length === 0) {
      throw new CliUsageError(
        `--cite <path>:<start>-<end> is required for memories ${first} (a memory needs a citation)`,
      );
    }
    return {
      fact,
      citations: cites.map(parseCitationArgument),
      reason: options.reason,
      scope: options.scope,
      createdBy: options.by,
    };
  };

  let action: MemoriesAction;
  switch (first) {
    case 'store':
      action = { kind: 'store', subject: need(options.subject, 'subject'), ...content(), ...sources(), ...learned() };
      break;
    case 'recent':
      action = { kind: 'recent', limit: options.limit, ref: options.ref };
      break;
    case 'search': {
      const query = rest.join(' ').trim();
      if (query === '') throw new CliUsageError('a search query is required for memories search');
      action = { kind: 'search', query, limit: options.limit, ref: options.ref };
      break;
    }
    case 'get':
      action = { kind: 'get', id: checkId(need(options.id, 'id')) };
      break;
    case 'verify': {
      const id = options.id;
      const all = options.all;
      if ((id === undefined) === !all)
        throw new CliUsageError('memories verify needs exactly one of --id <id> or --all');
      if (id !== undefined && given.has('limit')) throw new CliUsageError('--limit applies to verify --all only');
      action = {
        kind: 'verify',
        target: id === undefined ? { all: true, limit: options.limit } : { id: checkId(id) },
        ...sources(),
      };
      break;
    }
    case 'invalidate':
      action = { kind: 'invalidate', id: checkId(need(options.id, 'id')), reason: need(options.reason, 'reason') };
      break;
    case 'supersede':
      action = {
        kind: 'supersede',
        id: checkId(need(options.id, 'id')),
        subject: options.subject,
        ...content(),
        ...sources(),
        ...learned(),
      };
      break;
    case 'stats':
      action = { kind: 'stats' };
      break;
    case 'impact':
      action = {
        kind: 'impact',
        base: need(options.base, 'base'),
        head: options.head ?? 'HEAD',
        source: options.source,
      };
      break;
    case 'promote':
      action = {
        kind: 'promote',
        ref: need(options.ref, 'ref'),
        mergeCommit: need(options.mergeCommit, 'merge-commit'),
        into: options.into,
        pullRequest: pullRequest(),
        source: options.source,
      };
      break;
    case 'quarantine':
      action = { kind: 'quarantine', ref: need(options.ref, 'ref'), pullRequest: pullRequest() };
      break;
    case 'quarantined':
      action = { kind: 'quarantined', ref: options.ref };
      break;
    case 'delete-quarantined': {
      const id = options.id;
      const ref = options.ref;
      if ((id === undefined) === (ref === undefined)) {
        throw new CliUsageError('memories delete-quarantined needs exactly one of --id <id> or --ref <branch>');
      }
      action = { kind: 'delete-quarantined', id, ref };
      break;
    }
  }
  return {
    help: false,
    store: options.store,
    repo: options.repo,
    json: options.json,
    action,
  };
}

/** Parse the arguments after `memories` (see {@link memoriesRequestOf}); `--help` asks for the help. */
export function parseMemoriesArguments(argv: readonly string[]): MemoriesRequest {
  if (asksForHelp(MEMORIES, argv)) return { help: true };
  return memoriesRequestOf(parseCommand(MEMORIES, argv, { subcommand: 'own' }));
}
