// Why: a citation names a revision the way a person does (`HEAD`, a branch, a tag, a full or
// abbreviated commit id, optionally `~N` / `^N` ancestry), and the citation reader must turn that
// into one commit id per read so its cache can be keyed by an immutable commit.
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import { isObjectId } from '../objects/object-id.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { readRef } from '../refs/ref-store.js';
import { type GitFileSystem, readFileIfExists } from '../repository/file-system.js';
import type { GitRepositoryLayout } from '../repository/repository.js';
import { resolveRevision } from '../store/history.js';

const decoder = new TextDecoder();
/** `<base>` followed by any `~N` / `^N` steps (git forbids `~` and `^` in ref names). */
const ANCESTRY = /^([^~^]+)((?:[~^]\d*)*)$/;

function unknownRevision(ref: string, dir: string, why: string, cause?: unknown): RepomemError {
  return new RepomemError('NOT_FOUND', `unknown revision ${JSON.stringify(ref)} in ${dir}: ${why}`, {
    ...(cause === undefined ? {} : { cause }),
    details: { ref, dir },
  });
}

/** The commit HEAD points at (following one symbolic ref), for the worktree's own HEAD. */
async function readHead(fs: GitFileSystem, layout: GitRepositoryLayout): Promise<string> {
  const content = await readFileIfExists(fs, join(layout.gitdir, 'HEAD'));
  const text = content === undefined ? '' : decoder.decode(content).trim();
  if (isObjectId(text)) return text;
  const symbolic = /^ref:\s*(refs\/\S+)$/.exec(text);
  if (symbolic?.[1] === undefined)
    throw unknownRevision('HEAD', layout.dir, `HEAD is unreadable (${JSON.stringify(text.slice(0, 80))})`);
  const oid = await readRef(fs, layout.commondir, symbolic[1]);
  if (oid === null) throw unknownRevision('HEAD', layout.dir, `${symbolic[1]} has no commits yet`);
  return oid;
}

/**
 * The commit id `ref` names: `HEAD` (default), a branch or tag name, a full ref name, a full or
 * abbreviated (4+ hex digits) commit id, each optionally followed by `~N` or `^N`. Throws
 * `NOT_FOUND` naming `ref` when it names nothing, `INVALID_ARGUMENT` for a malformed or
 * ambiguous one.
 */
export async function resolveCitationRevision(
  fs: GitFileSystem,
  layout: GitRepositoryLayout,
  objects: GitObjectStore,
  ref: string | undefined,
): Promise<string> {
  const spec = ref ?? 'HEAD';
  if (typeof spec !== 'string' || spec.length === 0 || /[\s\0:]/.test(spec)) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid revision ${JSON.stringify(spec)}`, { details: { ref: spec } });
  }
  const match = ANCESTRY.exec(spec);
  if (match === null)
    throw new RepomemError('INVALID_ARGUMENT', `invalid revision ${JSON.stringify(spec)}`, { details: { ref: spec } });
  const [, base = '', steps = ''] = match;
  let oid: string;
  if (base === 'HEAD' || base === '@') {
    oid = await readHead(fs, layout);
  } else {
    try {
      const source = {
        objects,
        tip: () => readHead(fs, layout),
        readRef: (name: string) => readRef(fs, layout.commondir, name),
      };
      oid = await objects.peelToCommit((await resolveRevision(source, base)) as string);
    } catch (error) {
      if (error instanceof RepomemError && error.code === 'NOT_FOUND') {
        const why = error.message.startsWith('unknown revision') ? 'not a branch, tag or commit id' : error.message;
        throw unknownRevision(spec, layout.dir, why, error);
      }
      throw error;
    }
  }
  for (const step of steps.match(/[~^]\d*/g) ?? []) {
    const count = step.length > 1 ? Number(step.slice(1)) : 1;
    if (step.startsWith('~')) {
      for (let index = 0; index < count; index += 1) {
        const parent = (await objects.readCommit(oid)).parents[0];
        if (parent === undefined) throw unknownRevision(spec, layout.dir, 'it goes past the first commit');
        oid = parent;
      }
    } else if (count > 0) {
      const parent = (await objects.readCommit(oid)).parents[count - 1];
      if (parent === undefined) throw unknownRevision(spec, layout.dir, `the commit has no parent ${count}`);
      oid = parent;
    }
  }
  return oid;
}
