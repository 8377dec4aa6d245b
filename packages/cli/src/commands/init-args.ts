// Why: turns `repomem init ...` arguments into a validated request (pure).
import { booleanOption, type OptionSpecs, parseArguments, stringOption } from '../args.js';
import { CliUsageError } from '../errors.js';
import { INIT } from '../tree/decl/init.js';
import { optionSpecsOf } from '../tree/help.js';

/** Options accepted by `repomem init`. */
export const INIT_OPTIONS: OptionSpecs = optionSpecsOf(INIT);

/** A validated `repomem init` invocation. */
export type InitRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly dir: string | undefined;
      /** `--store` spec. */
      readonly store: string | undefined;
      /** `--repo` slug (scopes the SQLite document store). */
      readonly repo: string | undefined;
      readonly json: boolean;
    };

/** Parse the arguments after `init`; positionals are rejected. */
export function parseInitArguments(argv: readonly string[]): InitRequest {
  const parsed = parseArguments(argv, INIT_OPTIONS);
  if (booleanOption(parsed, 'help')) return { help: true };
  if (parsed.positionals.length > 0) {
    throw new CliUsageError(`unexpected argument for init: ${parsed.positionals[0]} (use --dir <path>)`);
  }
  return {
    help: false,
    dir: stringOption(parsed, 'dir'),
    store: stringOption(parsed, 'store'),
    repo: stringOption(parsed, 'repo'),
    json: booleanOption(parsed, 'json'),
  };
}
