// Why: `repomem prefs set|list`: a user's preferences (PR size, commit style, tests, docs),
// set by hand or taken from the explicit statements of a task description (`--from-task`),
// and listed as hydration will read them.
import { listPreferences, recordExplicitPreferences, type StoredPreference, setPreference } from '@repomem/core';
import { booleanOption, type ParsedArguments, parseArguments, stringOption } from '../args.js';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseRepo } from '../store-selection.js';
import { PREFS } from '../tree/decl/prefs.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import { withTaskRecords } from './task-records-open.js';

const OPTIONS = optionSpecsOf(PREFS);

const line = (preference: StoredPreference): string =>
  `${preference.data.topic.padEnd(14)} ${preference.data.preference}`;

async function run(action: string | undefined, parsed: ParsedArguments, io: CliIo): Promise<CommandReport> {
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const user = stringOption(parsed, 'user');
  if (user === undefined || user === '') throw new CliUsageError('--user is required');
  const selection = { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') };
  switch (action) {
    case 'set': {
      const text = stringOption(parsed, 'text');
      const fromTask = stringOption(parsed, 'from-task');
      if ((text === undefined) === (fromTask === undefined))
        throw new CliUsageError('give exactly one of --text or --from-task');
      const topic = stringOption(parsed, 'topic');
      const taskId = stringOption(parsed, 'task-id');
      const stored = await withTaskRecords(selection, io, repo, async (backend) =>
        text !== undefined
          ? [
              await setPreference({
                backend,
                repo,
                user,
                preference: text,
                ...(topic === undefined ? {} : { topic }),
                ...(taskId === undefined ? {} : { taskId }),
              }),
            ]
          : recordExplicitPreferences({
              backend,
              repo,
              user,
              description: fromTask as string,
              ...(taskId === undefined ? {} : { taskId }),
            }),
      );
      const summary = stored.length === 0 ? `no explicit preference found for @${user}` : stored.map(line).join('\n');
      return okReport('set', summary, { user, preferences: stored });
    }
    case 'list': {
      const warnings: string[] = [];
      const preferences = await withTaskRecords(selection, io, repo, (backend) =>
        listPreferences(backend, repo, user, {
          onSkipped: ({ id, error }) =>
            warnings.push(`skipped preference ${id}: ${error instanceof Error ? error.message : String(error)}`),
        }),
      );
      return okReport(
        'preferences',
        preferences.length === 0 ? `no preferences for @${user}` : preferences.map(line).join('\n'),
        { user, preferences, ...(warnings.length === 0 ? {} : { warnings }) },
        warnings,
      );
    }
    default:
      throw new CliUsageError(
        action === undefined ? 'prefs needs a subcommand (set, list)' : `unknown prefs subcommand: ${action}`,
      );
  }
}

/** Run `repomem prefs <set|list> ...`; returns the exit code. */
export async function runPrefsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, OPTIONS);
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(PREFS));
      return ExitCode.ok;
    }
    const [action, ...extra] = parsed.positionals;
    if (extra.length > 0) throw new CliUsageError(`unexpected argument: ${extra[0]}`);
    return writeReport(await run(action, parsed, io), io, json);
  } catch (error) {
    return reportError(error, io, helpText(PREFS), json);
  }
}
