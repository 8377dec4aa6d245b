// Why: a user who cannot reach their store (a typo in an endpoint, a missing privilege, a schema
// written by a newer release, an unmappable repository name) needs one command that checks it
// and says what to fix. The checks belong to each store's package (`diagnose` on its scheme);
// this command picks the store like every other command and prints the report.
import type { StoreDiagnostic } from '@repomem/core';
import { booleanOption, parseArguments, stringOption } from '../args.js';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { DOCTOR_USAGE } from '../usage.js';

const MARK: Readonly<Record<StoreDiagnostic['status'], string>> = { ok: 'ok  ', warning: 'warn', failed: 'FAIL' };

function formatCheck(check: StoreDiagnostic): string {
  const lines = [`${MARK[check.status]}  ${check.check}: ${check.detail}`];
  if (check.fix !== undefined && check.status !== 'ok') lines.push(`      fix: ${check.fix}`);
  return `${lines.join('\n')}\n`;
}

/** Run `repomem doctor [--store <spec> | --dir <path>] [--repo <o/n>] [--json]`; exit 2 when a check failed. */
export async function runDoctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, {
      store: { type: 'string' },
      dir: { type: 'string' },
      repo: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(DOCTOR_USAGE);
      return ExitCode.ok;
    }
    if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const chosen = await chooseStore({ store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') }, io);
    const repo = chooseRepo(stringOption(parsed, 'repo'), io.env);
    const checks = await cliRegistry.diagnoseStore(chosen.resolved, {
      cwd: chosen.context.cwd,
      env: chosen.context.env,
      repo,
      readOnly: true,
    });
    const failed = checks.some((check) => check.status === 'failed');
    if (json) {
      io.stdout.write(`${JSON.stringify({ ok: !failed, store: chosen.label, repo, checks })}\n`);
    } else {
      io.stdout.write(`repomem doctor: ${chosen.label} (repository ${repo})\n`);
      for (const check of checks) io.stdout.write(formatCheck(check));
      io.stdout.write(failed ? 'Some checks failed: see the fixes above.\n' : 'All checks passed.\n');
    }
    return failed ? ExitCode.failed : ExitCode.ok;
  } catch (error) {
    return reportError(error, io, DOCTOR_USAGE, json);
  }
}
