// Why: turns `repomem init ...` typed arguments (from its declaration) into a validated request (pure).
import { CliUsageError } from '../errors.js';
import { INIT } from '../tree/decl/init.js';
import { asksForHelp } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf } from '../tree/types.js';

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

/** The request of `init`'s typed arguments (parsed with `{ positionals: 'own' }`); positionals are rejected. */
export function initRequestOf({
  options,
  positionals,
}: ArgsOf<typeof INIT.options>): Extract<InitRequest, { help: false }> {
  if (positionals.length > 0) {
    throw new CliUsageError(`unexpected argument for init: ${positionals[0]} (use --dir <path>)`);
  }
  return { help: false, dir: options.dir, store: options.store, repo: options.repo, json: options.json };
}

/** Parse the arguments after `init` (see {@link initRequestOf}); `--help` asks for the help. */
export function parseInitArguments(argv: readonly string[]): InitRequest {
  if (asksForHelp(INIT, argv)) return { help: true };
  return initRequestOf(parseCommand(INIT, argv, { positionals: 'own' }));
}
