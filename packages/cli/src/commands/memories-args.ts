// Why: turns `repomem memories <subcommand> ...` arguments into a validated request (pure, no
// I/O): each subcommand gets exactly the fields it needs, options that do not apply are refused,
// and ids and citations are checked before any store is opened.
import { type Citation, MemoryIdSchema } from '@repomem/core';
import {
  booleanOption,
  type OptionSpecs,
  type ParsedArguments,
  parseArguments,
  parsePositiveInteger,
  stringOption,
  stringOptions,
} from '../args.js';
import { parseCitationArgument } from '../citation-arg.js';
import { CliUsageError } from '../errors.js';
import { MEMORIES } from '../tree/decl/memories.js';
import { optionSpecsOf } from '../tree/help.js';

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

/** Options accepted by `repomem memories` (each subcommand accepts a subset, see {@link parseMemoriesArguments}). */
export const MEMORIES_OPTIONS: OptionSpecs = optionSpecsOf(MEMORIES);

/** Options every subcommand accepts. */
const COMMON: readonly string[] = ['help', ...(MEMORIES.common ?? [])];

/** Options each subcommand accepts besides {@link COMMON}: its declaration's. */
const ALLOWED = Object.fromEntries(
  (MEMORIES.subcommands ?? []).map((sub) => [sub.name, sub.options ?? []]),
) as Readonly<Record<MemoriesSubcommand, readonly string[]>>;

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

/** Default `--limit` of recent, search and verify --all (50). */
export const DEFAULT_MEMORIES_LIMIT = 50;

function isSubcommand(value: string): value is MemoriesSubcommand {
  return (MEMORIES_SUBCOMMANDS as readonly string[]).includes(value);
}

function checkId(value: string): string {
  const parsed = MemoryIdSchema.safeParse(value);
  if (!parsed.success)
    throw new CliUsageError(`invalid --id ${JSON.stringify(value)}: memory id must be a lowercase UUID`);
  return parsed.data;
}

function limitOf(parsed: ParsedArguments): number {
  const raw = parsed.values.limit;
  return typeof raw === 'string' ? parsePositiveInteger(raw, '--limit') : DEFAULT_MEMORIES_LIMIT;
}

/**
 * Parse the arguments after `memories`. Throws {@link CliUsageError} naming the problem: unknown
 * subcommand, an option that does not apply, a missing required option, a bad `--id`, `--cite`
 * or `--limit`, or stray positionals.
 */
export function parseMemoriesArguments(argv: readonly string[]): MemoriesRequest {
  const parsed = parseArguments(argv, MEMORIES_OPTIONS);
  if (booleanOption(parsed, 'help')) return { help: true };
  const [first, ...rest] = parsed.positionals;
  if (first === undefined) throw new CliUsageError(`missing memories subcommand: ${MEMORIES_SUBCOMMANDS.join(', ')}`);
  if (!isSubcommand(first)) {
    throw new CliUsageError(`unknown memories subcommand: ${first} (expected ${MEMORIES_SUBCOMMANDS.join(', ')})`);
  }
  const allowed = new Set<string>([...COMMON, ...ALLOWED[first]]);
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value !== undefined && !allowed.has(name))
      throw new CliUsageError(`option --${name} does not apply to memories ${first}`);
  }
  if (first !== 'search' && rest.length > 0) {
    throw new CliUsageError(`unexpected argument for memories ${first}: ${rest[0]}`);
  }
  const need = (name: string): string => {
    const value = stringOption(parsed, name);
    if (value === undefined || value.trim() === '')
      throw new CliUsageError(`--${name} is required for memories ${first}`);
    return value;
  };
  const sources = (): SourceOptions => ({ source: stringOption(parsed, 'source'), ref: stringOption(parsed, 'ref') });
  const learned = (): LearnedOptions => ({ commit: stringOption(parsed, 'commit') });
  const pullRequest = (): number | undefined => {
    const raw = stringOption(parsed, 'pr');
    return raw === undefined ? undefined : parsePositiveInteger(raw, '--pr');
  };
  const content = (): Omit<MemoryContent, 'subject'> => {
    const fact = need('fact');
    const cites = stringOptions(parsed, 'cite');
    if (cites.length === 0) {
      throw new CliUsageError(
        `--cite <path>:<start>-<end> is required for memories ${first} (a memory needs a citation)`,
      );
    }
    return {
      fact,
      citations: cites.map(parseCitationArgument),
      reason: stringOption(parsed, 'reason'),
      scope: stringOption(parsed, 'scope'),
      createdBy: stringOption(parsed, 'by'),
    };
  };

  let action: MemoriesAction;
  switch (first) {
    case 'store':
      action = { kind: 'store', subject: need('subject'), ...content(), ...sources(), ...learned() };
      break;
    case 'recent':
      action = { kind: 'recent', limit: limitOf(parsed), ref: stringOption(parsed, 'ref') };
      break;
    case 'search': {
      const query = rest.join(' ').trim();
      if (query === '') throw new CliUsageError('a search query is required for memories search');
      action = { kind: 'search', query, limit: limitOf(parsed), ref: stringOption(parsed, 'ref') };
      break;
    }
    case 'get':
      action = { kind: 'get', id: checkId(need('id')) };
      break;
    case 'verify': {
      const id = stringOption(parsed, 'id');
      const all = booleanOption(parsed, 'all');
      if ((id === undefined) === !all)
        throw new CliUsageError('memories verify needs exactly one of --id <id> or --all');
      if (id !== undefined && parsed.values.limit !== undefined)
        throw new CliUsageError('--limit applies to verify --all only');
      action = {
        kind: 'verify',
        target: id === undefined ? { all: true, limit: limitOf(parsed) } : { id: checkId(id) },
        ...sources(),
      };
      break;
    }
    case 'invalidate':
      action = { kind: 'invalidate', id: checkId(need('id')), reason: need('reason') };
      break;
    case 'supersede':
      action = {
        kind: 'supersede',
        id: checkId(need('id')),
        subject: stringOption(parsed, 'subject'),
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
        base: need('base'),
        head: stringOption(parsed, 'head') ?? 'HEAD',
        source: stringOption(parsed, 'source'),
      };
      break;
    case 'promote':
      action = {
        kind: 'promote',
        ref: need('ref'),
        mergeCommit: need('merge-commit'),
        into: stringOption(parsed, 'into'),
        pullRequest: pullRequest(),
        source: stringOption(parsed, 'source'),
      };
      break;
    case 'quarantine':
      action = { kind: 'quarantine', ref: need('ref'), pullRequest: pullRequest() };
      break;
    case 'quarantined':
      action = { kind: 'quarantined', ref: stringOption(parsed, 'ref') };
      break;
    case 'delete-quarantined': {
      const id = stringOption(parsed, 'id');
      const ref = stringOption(parsed, 'ref');
      if ((id === undefined) === (ref === undefined)) {
        throw new CliUsageError('memories delete-quarantined needs exactly one of --id <id> or --ref <branch>');
      }
      action = { kind: 'delete-quarantined', id, ref };
      break;
    }
  }
  return {
    help: false,
    store: stringOption(parsed, 'store'),
    repo: stringOption(parsed, 'repo'),
    json: booleanOption(parsed, 'json'),
    action,
  };
}
