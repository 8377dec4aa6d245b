// Why: installing a hook must never destroy the one a team already has, and uninstalling must
// put things back exactly. The previous hook is renamed beside ours and chained; uninstall
// removes ours and renames it back. Each outcome is a value the command reports.
import { chmod, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliDataError } from '../errors.js';
import { CHAINED_HOOK_NAME, HOOK_NAME, hookScript, isRepomemHook } from './hook-script.js';

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
 * hook is someone else's (installing would lose one of them).
 */
export async function installHook(hooksDir: string): Promise<InstallHookResult> {
  const hook = join(hooksDir, HOOK_NAME);
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const script = hookScript();
  await mkdir(hooksDir, { recursive: true });
  const current = await readText(hook);
  if (current !== undefined && isRepomemHook(current)) {
    if (current === script) return { kind: 'unchanged', hook };
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
 * Leaves a hook that is not repomem's untouched (`not_installed`, `other: true`).
 */
export async function uninstallHook(hooksDir: string): Promise<UninstallHookResult> {
  const hook = join(hooksDir, HOOK_NAME);
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const current = await readText(hook);
  if (current === undefined || !isRepomemHook(current)) {
    return { kind: 'not_installed', hook, other: current !== undefined || (await exists(hook)) };
  }
  await rm(hook);
  if (await exists(chained)) {
    await rename(chained, hook);
    return { kind: 'restored', hook, from: chained };
  }
  return { kind: 'removed', hook };
}
