// Why: the git benchmarks need large repositories built fast and identically every run: the git
// CLI with a fixed identity and no user configuration, and `git fast-import` streams (one commit of
// 20,000 files, or 1,000 commits of one file) instead of thousands of porcelain calls.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Environment for git CLI calls: fixed identity, no user or system configuration. */
export const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};

/** Run git in `cwd` (optionally feeding `input`) and return trimmed stdout; throws with stderr on failure. */
export function git(cwd, argv, input) {
  return execFileSync('git', argv, { cwd, env: gitEnv, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] })
    .toString()
    .trim();
}

/** Run git without a shell or output capture beyond stderr; throws when it fails. */
export function gitQuiet(cwd, argv) {
  const run = spawnSync('git', argv, { cwd, env: gitEnv });
  if (run.status !== 0) throw new Error(`git ${argv.join(' ')} failed: ${run.stderr}`);
  return run;
}

/** A new empty repository (branch `main`) in a temp directory. */
export function freshBenchRepository(prefix = 'repomem-git-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  git(dir, ['init', '-q', '-b', 'main']);
  return dir;
}

/** A fast-import stream committing `files` (`{ path, content }`) on `ref` in one commit. */
export function singleCommitStream(ref, files) {
  const chunks = [`commit ${ref}\ncommitter bench <bench@localhost> 1767225600 +0000\ndata 11\nbench tree\n`];
  for (const file of files) {
    chunks.push(`M 100644 inline ${file.path}\ndata ${Buffer.byteLength(file.content)}\n${file.content}\n`);
  }
  return `${chunks.join('')}\n`;
}

/**
 * A fast-import stream of `count` commits on `ref` that each append a bullet to MEMORY.md, plus
 * after every tenth one a commit touching only another file (so a path-filtered history has
 * commits to skip): `count + count / 10` commits in all.
 */
export function memoryHistoryStream(ref, count) {
  const chunks = [];
  let body = '# Memory\n\n## Notes\n';
  let time = 1767225600;
  const commit = (subject) => {
    time += 60;
    const message = `${subject}\n\nTask-Id: T-${time}\n`;
    chunks.push(
      `commit ${ref}\ncommitter bench <bench@localhost> ${time} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`,
    );
  };
  for (let i = 0; i < count; i++) {
    body += `- bullet ${i}\n`;
    commit(`chore(memory): edit ${String(i).padStart(4, '0')}`);
    chunks.push(`M 100644 inline MEMORY.md\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    if (i % 10 === 9) {
      commit(`chore(memory): other ${i}`);
      chunks.push(`M 100644 inline other/${i}.md\ndata 2\nx\n\n`);
    }
  }
  return `${chunks.join('')}\n`;
}
