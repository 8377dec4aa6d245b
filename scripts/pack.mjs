// Why: nothing is published yet, and `npm pack` leaves `workspace:*` dependencies that npm
// refuses, so `./dev pack` is the install path that works today: pnpm packs every publishable
// package (pnpm writes real versions in place of `workspace:*`) into one folder, from which plain
// npm installs them into any project. The attw gate of the test command packs the same way.
//
//   node scripts/pack.mjs [<dir>]   default <dir>: ./packed (emptied of old tarballs first)
//
// Prints one line per tarball (path, size, unpacked size, files) and the command that installs
// them. Expects the packages to be built (`./dev pack` builds first).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLOOR } from './node-floor.mjs';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Names and folders of the packages that are published (not private), sorted by folder. */
export function publishablePackages() {
  const packagesDir = join(ROOT, 'packages');
  return readdirSync(packagesDir)
    .sort()
    .map((folder) => ({ folder: join(packagesDir, folder), manifest: join(packagesDir, folder, 'package.json') }))
    .filter(({ manifest }) => {
      try {
        return statSync(manifest).isFile();
      } catch {
        return false;
      }
    })
    .map(({ folder, manifest }) => ({ folder, ...JSON.parse(readFileSync(manifest, 'utf8')) }))
    .filter((pkg) => pkg.private !== true)
    .map((pkg) => ({ name: pkg.name, version: pkg.version, folder: pkg.folder }));
}

/**
 * Pack every publishable package into `dir` with `pnpm pack` (run from the repository root with
 * the toolchain's pnpm on PATH). Returns the tarballs' absolute paths, or throws with pnpm's output.
 */
export function packAll(dir) {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (name.endsWith('.tgz')) rmSync(join(out, name));
  const filters = publishablePackages().flatMap((pkg) => ['--filter', pkg.name]);
  const result = spawnSync('pnpm', ['--recursive', ...filters, 'pack', '--pack-destination', out], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) {
    throw new Error(`pnpm pack failed (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return readdirSync(out)
    .filter((name) => name.endsWith('.tgz'))
    .sort()
    .map((name) => join(out, name));
}

/** Compressed size, unpacked size and file count of a tarball (read with `tar`). */
export function tarballFigures(tarball) {
  const listing = spawnSync('tar', ['-tzvf', tarball], { encoding: 'utf8' });
  const lines = listing.stdout.split('\n').filter((line) => line.trim() !== '');
  const unpacked = lines.reduce((sum, line) => sum + (Number(line.trim().split(/\s+/)[2]) || 0), 0);
  return { bytes: statSync(tarball).size, unpacked, files: lines.length };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(ROOT, 'packed'));
  let tarballs;
  try {
    tarballs = packAll(dir);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  for (const tarball of tarballs) {
    const { bytes, unpacked, files } = tarballFigures(tarball);
    const shown = relative(process.cwd(), tarball).startsWith('..') ? tarball : relative(process.cwd(), tarball);
    process.stdout.write(`${shown}  ${kb(bytes)} (unpacked ${kb(unpacked)}, ${files} files)\n`);
  }
  process.stdout.write(
    `\nInstall them into a project (npm 7 or later, Node ${NODE_FLOOR} or later):\n  npm install ${join(dir, '*.tgz')}\n`,
  );
}
