// Why: a user who cannot reach their store (a typo in an endpoint, a missing privilege, a schema
// written by a newer release, an unmappable repository name) needs one command that checks it
// and says what to fix. The checks belong to each store's package (`diagnose` on its scheme);
// this command picks the store like every other command and prints the report.
import type { StoreDiagnostic } from '@repomem/core';
import { embedderSpecOf } from '../embedder-spec.js';
import { ExitCode } from '../errors.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { DOCTOR } from '../tree/decl/doctor.js';
import type { CommandRunner } from '../tree/types.js';

const MARK: Readonly<Record<StoreDiagnostic['status'], string>> = { ok: 'ok  ', warning: 'warn', failed: 'FAIL' };

function formatCheck(check: StoreDiagnostic): string {
  const lines = [`${MARK[check.status]}  ${check.check}: ${check.detail}`];
  if (check.fix !== undefined && check.status !== 'ok') lines.push(`      fix: ${check.fix}`);
  return `${lines.join('\n')}\n`;
}

/** Run `repomem doctor [--store <spec> | --dir <path>] [--repo <o/n>] [--embedder <spec>] [--json]`; exit 2 when a check failed. */
export const runDoctorCommand: CommandRunner = commandRunner(DOCTOR, async ({ options }, io) => {
  const json = options.json;
  const chosen = await chooseStore({ store: options.store, dir: options.dir }, io);
  const repo = chooseRepo(options.repo, io);
  const storeChecks = await cliRegistry.diagnoseStore(chosen.resolved, {
    cwd: chosen.context.cwd,
    env: chosen.context.env,
    repo,
    readOnly: true,
  });
  // The embedder line: none configured costs nothing; a configured one is opened and counted.
  const spec = embedderSpecOf(options.embedder, io.env);
  const checks: StoreDiagnostic[] = [...storeChecks];
  // A store that failed a check is what to fix first: no embedder line then.
  const storeFailed = storeChecks.some((check) => check.status === 'failed');
  if (!storeFailed && spec === undefined) {
    checks.push({
      check: 'embedder',
      status: 'ok',
      detail:
        'none: search and context rank lexically (set REPOMEM_EMBEDDER=local and run repomem index for hybrid ranking)',
    });
  } else if (!storeFailed && spec !== undefined) {
    const { diagnoseEmbedder } = await import('./doctor-embedder.js');
    checks.push(await diagnoseEmbedder(spec, chosen, repo, io));
  }
  const failed = checks.some((check) => check.status === 'failed');
  if (json) {
    io.stdout.write(`${JSON.stringify({ ok: !failed, store: chosen.label, repo, checks })}\n`);
  } else {
    io.stdout.write(`repomem doctor: ${chosen.label} (repository ${repo})\n`);
    for (const check of checks) io.stdout.write(formatCheck(check));
    io.stdout.write(failed ? 'Some checks failed: see the fixes above.\n' : 'All checks passed.\n');
  }
  return failed ? ExitCode.failed : ExitCode.ok;
});
