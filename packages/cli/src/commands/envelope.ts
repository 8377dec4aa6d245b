// Why: `repomem envelope --from-event`: the CLI side of core's pure `envelopeFromEvent` (reading
// GITHUB_EVENT_PATH is the CLI's job), so a workflow gets Sepo's envelope without assembling it.
import { envelopeFromEvent } from '@repomem/core';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import { readGitHubEvent } from '../github-event.js';
import { commandRunner } from '../tree/command-runner.js';
import { ENVELOPE } from '../tree/decl/envelope.js';
import type { CommandRunner } from '../tree/types.js';

/** Run `repomem envelope <argv...>`; returns the exit code. */
export const runEnvelopeCommand: CommandRunner = commandRunner(ENVELOPE, async ({ options }, io) => {
  if (!options.fromEvent) throw new CliUsageError('envelope needs --from-event');
  const route = options.route ?? io.env.ROUTE ?? '';
  if (route === '') throw new CliUsageError('--route <route> (or $ROUTE) is required');
  const payload = await readGitHubEvent(io.env.GITHUB_EVENT_PATH, true);
  const result = envelopeFromEvent(
    {
      payload,
      env: io.env,
      route,
      lane: options.lane ?? io.env.LANE,
      ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
    },
    { customRoutes: options.customRoute },
  );
  if (!result.ok) {
    throw new CliDataError('INVALID_ENVELOPE', `invalid envelope: ${result.issues.map((i) => i.message).join('; ')}`);
  }
  io.stdout.write(`${JSON.stringify(result.envelope, null, options.json ? undefined : 2)}\n`);
  return ExitCode.ok;
});
