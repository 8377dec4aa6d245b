// Why: `repomem prefs set|list`: a user's preferences (PR size, commit style, tests, docs),
// set by hand or taken from the explicit statements of a task description (`--from-task`),
// and listed as hydration will read them.
import { listPreferences, recordExplicitPreferences, type StoredPreference, setPreference } from '@repomem/core';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliUsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { chooseRepo } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { PREFS } from '../tree/decl/prefs.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { withTaskRecords } from './task-records-open.js';

type PrefsOptions = ArgsOf<typeof PREFS.options>['options'];

const line = (preference: StoredPreference): string =>
  `${preference.data.topic.padEnd(14)} ${preference.data.preference}`;

async function run(action: string | undefined, options: PrefsOptions, io: CliIo): Promise<CommandReport> {
  const repo = chooseRepo(options.repo, io);
  const user = options.user;
  if (user === undefined || user === '') throw new CliUsageError('--user is required');
  const selection = { store: options.store, dir: options.dir };
  switch (action) {
    case 'set': {
      const { text, fromTask, topic, taskId } = options;
      if ((text === undefined) === (fromTask === undefined))
        throw new CliUsageError('give exactly one of --text or --from-task');
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
export const runPrefsCommand: CommandRunner = commandRunner(
  PREFS,
  async ({ options, subcommand, positionals }, io) => {
    if (positionals.length > 0) throw new CliUsageError(`unexpected argument: ${positionals[0]}`);
    return writeReport(await run(subcommand, options, io), io, options.json);
  },
  { subcommand: 'own' },
);
