// Why: turns `repomem sync github ...` typed arguments (from its declaration) into a validated
// request (pure), so `--help` and argument errors need no store and no network code.
import { CliUsageError } from '../errors.js';
import { SYNC } from '../tree/decl/sync.js';
import { asksForHelp } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf } from '../tree/types.js';

/** A validated `repomem sync` invocation. */
export type SyncRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      /** `owner/name` as given (checked by the mirror). */
      readonly repo: string;
      readonly dir: string | undefined;
      readonly store: string | undefined;
      readonly maxRequests: number | undefined;
      readonly since: string | undefined;
      /** `--migrate-legacy`: move the flat layout instead of syncing; `apply` performs it. */
      readonly migrateLegacy: boolean;
      readonly apply: boolean;
      readonly json: boolean;
    };

/**
 * The request of `sync`'s typed arguments (parsed with `{ subcommand: 'own' }`). The subcommand is
 * the source (`github`, the only one); the repository is `--repo`, else `$GITHUB_REPOSITORY`, else
 * what `origin` returns (the CLI passes the clone's origin remote, said on stderr; called only
 * when the others are empty).
 */
export function syncRequestOf(
  { options, subcommand: source, positionals: rest }: ArgsOf<typeof SYNC.options>,
  env: Readonly<Record<string, string | undefined>>,
  origin: () => string | undefined = () => undefined,
): Extract<SyncRequest, { help: false }> {
  if (source === undefined) throw new CliUsageError('missing what to sync: repomem sync github --repo OWNER/NAME');
  if (source !== 'github') throw new CliUsageError(`unknown sync source: ${source} (only github)`);
  if (rest.length > 0) throw new CliUsageError(`unexpected argument: ${rest[0]}`);
  const repo = options.repo ?? (env.GITHUB_REPOSITORY || undefined) ?? origin();
  if (repo === undefined) {
    throw new CliUsageError(
      'missing --repo OWNER/NAME (or $GITHUB_REPOSITORY, or a clone whose origin remote names it)',
    );
  }
  const { migrateLegacy, apply } = options;
  if (apply && !migrateLegacy) throw new CliUsageError('--apply goes with --migrate-legacy');
  return {
    help: false,
    repo,
    dir: options.dir,
    store: options.store,
    maxRequests: options.maxRequests,
    since: options.since,
    migrateLegacy,
    apply,
    json: options.json,
  };
}

/** Parse the arguments after `sync` (see {@link syncRequestOf}); `--help` asks for the help. */
export function parseSyncArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  origin: () => string | undefined = () => undefined,
): SyncRequest {
  if (asksForHelp(SYNC, argv)) return { help: true };
  return syncRequestOf(parseCommand(SYNC, argv, { subcommand: 'own' }), env, origin);
}
