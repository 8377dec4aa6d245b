// Why: `repomem envelope --from-event`: the CLI side of core's pure `envelopeFromEvent` (reading
// GITHUB_EVENT_PATH is the CLI's job), so a workflow gets Sepo's envelope without assembling it.
import { envelopeFromEvent } from '@repomem/core';
import { booleanOption, parseArguments, stringOption, stringOptions } from '../args.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import { readGitHubEvent } from '../github-event.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { ENVELOPE } from '../tree/decl/envelope.js';
import { helpText, optionSpecsOf } from '../tree/help.js';

/** Run `repomem envelope <argv...>`; returns the exit code. */
export async function runEnvelopeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, optionSpecsOf(ENVELOPE));
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(ENVELOPE));
      return ExitCode.ok;
    }
    if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
    if (!booleanOption(parsed, 'from-event')) throw new CliUsageError('envelope needs --from-event');
    const route = stringOption(parsed, 'route') ?? io.env.ROUTE ?? '';
    if (route === '') throw new CliUsageError('--route <route> (or $ROUTE) is required');
    const payload = await readGitHubEvent(io.env.GITHUB_EVENT_PATH, true);
    const workflow = stringOption(parsed, 'workflow');
    const result = envelopeFromEvent(
      {
        payload,
        env: io.env,
        route,
        lane: stringOption(parsed, 'lane') ?? io.env.LANE,
        ...(workflow === undefined ? {} : { workflow }),
      },
      { customRoutes: stringOptions(parsed, 'custom-route') },
    );
    if (!result.ok) {
      throw new CliDataError('INVALID_ENVELOPE', `invalid envelope: ${result.issues.map((i) => i.message).join('; ')}`);
    }
    io.stdout.write(`${JSON.stringify(result.envelope, null, json ? undefined : 2)}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, helpText(ENVELOPE), json);
  }
}
