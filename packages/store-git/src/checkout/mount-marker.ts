// Why: a mount directory must remember which repository, branch and commit it reflects, so a
// later commit knows its merge base and a second mount recognises its own directory. That record
// is `<into>/.repomem-mount.json`, read back through a schema (it is on disk, editable by anyone)
// and never committed.
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import { z } from 'zod';
import { type GitFileSystem, readFileIfExists } from '../repository/file-system.js';

/** File name of the mount marker at the root of a mount (never committed). */
export const MOUNT_MARKER_FILE = '.repomem-mount.json';

const markerSchema = z.object({
  format: z.literal('repomem-mount'),
  version: z.literal(1),
  repository: z.string().min(1),
  gitdir: z.string().min(1),
  branch: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  updatedAt: z.string(),
});

/** What the marker records. */
export type MountMarker = z.infer<typeof markerSchema>;

/**
 * Read the marker of `into`: `undefined` when there is none; throws `INVALID_DOCUMENT` when it
 * exists but is not a valid marker (nothing is changed).
 */
export async function readMountMarker(fs: GitFileSystem, into: string): Promise<MountMarker | undefined> {
  const path = join(into, MOUNT_MARKER_FILE);
  const bytes = await readFileIfExists(fs, path);
  if (bytes === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new RepomemError('INVALID_DOCUMENT', `mount marker ${path} is not valid JSON`, {
      cause: error,
      details: { path },
    });
  }
  const parsed = markerSchema.safeParse(json);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_DOCUMENT',
      `mount marker ${path} is malformed: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
      { details: { path } },
    );
  }
  return parsed.data;
}

/** Write the marker (temp file and rename, so a reader never sees half of it). */
export async function writeMountMarker(
  fs: GitFileSystem,
  into: string,
  marker: Omit<MountMarker, 'format' | 'version' | 'updatedAt'>,
): Promise<void> {
  const record: MountMarker = { format: 'repomem-mount', version: 1, ...marker, updatedAt: new Date().toISOString() };
  const path = join(into, MOUNT_MARKER_FILE);
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.repomem-tmp`;
  await fs.promises.writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
  await fs.promises.rename(temp, path);
}
