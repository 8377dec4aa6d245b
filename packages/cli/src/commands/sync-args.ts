// Why: turns `repomem sync github ...` arguments into a validated request (pure), so `--help` and
// argument errors need no store and no network code.
import { booleanOption, type OptionSpecs, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { CliUsageError } from '../errors.js';
import { SYNC } from '../tree/decl/sync.js';
import { optionSpecsOf } from '../tree/help.js';

/** Options accepted by `repomem sync github`. */
export const SYNC_OPTIONS: OptionSpecs = optionSpecsOf(SYNC);

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
 * Parse the arguments after `sync`. The first positional is the source (`github`, the only one);
 * the repository is `--repo`, else `$GITHUB_REPOSITORY`, else what `origin` returns (the CLI
 * passes the clone's origin remote, said on stderr; called only when the others are empty).
 */
export function parseSyncArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  origin: () => string | undefined = () => undefined,
): SyncRequest {
  const parsed = parseArguments(argv, SYNC_OPTIONS);
  if (booleanOption(parsed, 'help')) return { help: true };
  const [source, ...rest] = parsed.positionals;
  if (source === undefined) throw new CliUsageError('missing what to sync: repomem sync github --repo OWNER/NAME');
  if (source !== 'github') throw new CliUsageError(`unknown sync source: ${source} (only github)`);
  if (rest.length > 0) throw new CliUsageError(`unexpected argument: ${rest[0]}`);
  const repo = stringOption(parsed, 'repo') ?? (env.GITHUB_REPOSITORY || undefined) ?? origin();
  if (repo === undefined) {
    throw new CliUsageError(
      'missing --repo OWNER/NAME (or $GITHUB_REPOSITORY, or a clone whose origin remote names it)',
    );
  }
  const maxRequests = stringOption(parsed, 'max-requests');
  const migrateLegacy = booleanOption(parsed, 'migrate-legacy');
  const apply = booleanOption(parsed, 'apply');
  if (apply && !migrateLegacy) throw new CliUsageError('--apply goes with --migrate-legacy');
  return {
    help: false,
    repo,
    dir: stringOption(parsed, 'dir'),
    store: stringOption(parsed, 'store'),
    maxRequests: maxRequests === undefined ? undefined : parsePositiveInteger(maxRequests, '--max-requests'),
    since: stringOption(parsed, 'since'),
    migrateLegacy,
    apply,
    json: booleanOption(parsed, 'json'),
  };
}
