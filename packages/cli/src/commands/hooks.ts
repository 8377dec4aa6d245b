// Why: `repomem hooks install|uninstall`: thin wiring from arguments to the hook installer,
// with the same text and `--json` reports as the other commands.

import { resolve } from 'node:path';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliUsageError } from '../errors.js';
import { PROMPT_VERSION_VARIABLE, TASK_ID_VARIABLE } from '../hooks/hook-script.js';
import { hooksDirectory } from '../hooks/hooks-dir.js';
import { type InstallHookResult, installHook, type UninstallHookResult, uninstallHook } from '../hooks/install-hook.js';
import { commandRunner } from '../tree/command-runner.js';
import { HOOKS } from '../tree/decl/hooks.js';
import type { CommandRunner } from '../tree/types.js';

function describeInstall(result: InstallHookResult): CommandReport {
  const fields = {
    hook: result.hook,
    task_id_variable: TASK_ID_VARIABLE,
    prompt_version_variable: PROMPT_VERSION_VARIABLE,
  };
  switch (result.kind) {
    case 'installed':
      return okReport(
        'installed',
        `installed ${result.hook}${result.chained === null ? '' : ` (the previous hook now runs first from ${result.chained})`}\ncommits get Task-Id: and Prompt-Version: trailers while $${TASK_ID_VARIABLE} is set`,
        { ...fields, chained: result.chained },
      );
    case 'updated':
      return okReport('updated', `updated ${result.hook}`, fields);
    default:
      return okReport('unchanged', `${result.hook} is already installed`, fields);
  }
}

function describeUninstall(result: UninstallHookResult): CommandReport {
  switch (result.kind) {
    case 'restored':
      return okReport('restored', `removed repomem's hook; restored the previous hook at ${result.hook}`, {
        hook: result.hook,
        from: result.from,
      });
    case 'removed':
      return okReport('removed', `removed ${result.hook}`, { hook: result.hook });
    default:
      return okReport(
        'not_installed',
        result.other
          ? `${result.hook} is not repomem's hook; left it as it is`
          : `no repomem hook installed at ${result.hook}`,
        { hook: result.hook, other: result.other },
      );
  }
}

/** Run `repomem hooks <install|uninstall> [--json]`; returns the exit code. */
export const runHooksCommand: CommandRunner = commandRunner(
  HOOKS,
  async ({ options, subcommand: action, positionals }, io) => {
    if (positionals.length > 0) throw new CliUsageError(`unexpected argument: ${positionals[0]}`);
    if (action !== 'install' && action !== 'uninstall') {
      throw new CliUsageError(
        action === undefined ? 'hooks needs install or uninstall' : `unknown hooks action: ${action}`,
      );
    }
    const explicit = options.hooksDir;
    const dir = explicit === undefined ? await hooksDirectory(io.cwd, io.env) : resolve(io.cwd, explicit);
    const report =
      action === 'install' ? describeInstall(await installHook(dir)) : describeUninstall(await uninstallHook(dir));
    return writeReport(report, io, options.json);
  },
  { subcommand: 'own' },
);
