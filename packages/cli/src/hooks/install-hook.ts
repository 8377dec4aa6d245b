// Why: installing a hook must never destroy the one a team already has, and uninstalling must
// put things back exactly. The previous hook is renamed beside ours and chained; uninstall
// removes ours and renames it back. A hook that carries repomem's marker but was edited holds
// lines repomem did not write: neither install nor uninstall replaces or removes it (it cannot
// be chained either: it would run itself), they say so. Each outcome is a value the command reports.
import { chmod, lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliDataError } from '../errors.js';
import { CHAINED_HOOK_NAME, HOOK_NAME, hookScript, isPristineRepomemHook, isRepomemHook } from './hook-script.js';

/** Outcome of {@link installHook}. */
export type InstallHookResult =
  | { readonly kind: 'installed'; readonly hook: string; readonly chained: string | null }
  | { readonly kind: 'updated'; readonly hook: string }
  | { readonly kind: 'unchanged'; readonly hook: string };

/** Outcome of {@link uninstallHook}. */
export type UninstallHookResult =
  | { readonly kind: 'removed'; readonly hook: string }
  | { readonly kind: 'restored'; readonly hook: string; readonly from: string }
  | { readonly kind: 'not_installed'; readonly hook: string; readonly other: boolean };

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The refusal for a hook with repomem's marker and lines repomem did not write. */
function editedHook(hook: string, action: 'install' | 'uninstall'): CliDataError {
  const what =
    action === 'install'
      ? "installing would lose them, so it was left as it is. Replace it with a hook holding only your lines (none of repomem's), then run repomem hooks install again: repomem keeps that hook and runs it first"
      : "uninstalling would lose them, so it was left as it is. Remove repomem's lines from it yourself (keep yours), or delete the file";
  return new CliDataError('CONFLICT', `${hook} carries repomem's marker but has lines repomem did not write; ${what}`);
}

/** Make sure `hooksDir` is a directory (created if missing), or say clearly what is in the way. */
async function ensureHooksDirectory(hooksDir: string): Promise<void> {
  try {
    await mkdir(hooksDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
  }
  const found = await stat(hooksDir).catch(() => undefined);
  if (found?.isDirectory() !== true) {
    throw new CliDataError(
      'NOT_A_DIRECTORY',
      `the hooks directory ${hooksDir} (git's core.hooksPath, or .git/hooks) is ${found === undefined ? 'below a file' : 'a file'}, not a directory: point core.hooksPath at a directory (git config core.hooksPath <dir>) or unset it, then install again`,
    );
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Install repomem's `prepare-commit-msg` hook in `hooksDir` (created if missing). A hook that is
 * already there and not repomem's is renamed to `prepare-commit-msg.repomem-chained` (mode and
 * content kept) and run first by ours. Re-installing updates an older repomem hook in place.
 * Throws {@link CliDataError} `CONFLICT` when a chained hook is already parked but the installed
 * hook is someone else's (installing would lose one of them), or when the installed hook carries
 * repomem's marker but was edited; `NOT_A_DIRECTORY` when the hooks directory is a file.
 */
export async function installHook(hooksDir: string): Promise<InstallHookResult> {
  const hook = join(hooksDir, HOOK_NAME);
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const script = hookScript();
  await ensureHooksDirectory(hooksDir);
  const current = await readText(hook);
  if (current !== undefined && isRepomemHook(current)) {
    if (current === script) return { kind: 'unchanged', hook };
    if (!isPristineRepomemHook(current)) throw editedHook(hook, 'install');
    await writeFile(hook, script, { mode: 0o755 });
    await chmod(hook, 0o755);
    return { kind: 'updated', hook };
  }
  let parked: string | null = null;
  if (await exists(hook)) {
    if (await exists(chained)) {
      throw new CliDataError(
        'CONFLICT',
        `${hook} is not repomem's hook and ${chained} already exists; move one of them away, then install again`,
      );
    }
    await rename(hook, chained);
    parked = chained;
  }
  await writeFile(hook, script, { mode: 0o755 });
  await chmod(hook, 0o755);
  return { kind: 'installed', hook, chained: parked };
}

/**
 * Remove repomem's hook from `hooksDir` and rename the chained previous hook back, if any.
 * Leaves a hook that is not repomem's untouched (`not_installed`, `other: true`); throws
 * {@link CliDataError} `CONFLICT` for repomem's hook with lines added to it.
 */
export async function uninstallHook(hooksDir: string): Promise<UninstallHookResult> {
  const hook = join(hooksDir, HOOK_NAME);
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const current = await readText(hook);
  if (current === undefined || !isRepomemHook(current)) {
    return { kind: 'not_installed', hook, other: current !== undefined || (await exists(hook)) };
  }
  if (!isPristineRepomemHook(current)) throw editedHook(hook, 'uninstall');
  await rm(hook);
  if (await exists(chained)) {
    await rename(chained, hook);
    return { kind: 'restored', hook, from: chained };
  }
  return { kind: 'removed', hook };
}
