// Why: where mirror files live is Sepo's layout (`github/<owner>/<repo>/<kind>-<n>.json`, so issue
// #42, pull request #42 and discussion #42 never collide and a copied memory branch keeps another
// repository's history apart). It is decided here once, with the repository name checked the way
// GitHub names repositories, so no path is ever built from an unchecked slug.
import { RepomemError } from '@repomem/core';
import type { MirrorLane } from './graphql-selections.js';

/** A repository as the mirror names it. */
export interface MirrorRepository {
  readonly owner: string;
  readonly name: string;
  /** `owner/name`. */
  readonly slug: string;
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Parse `owner/name` as GitHub spells repositories. Throws `INVALID_ARGUMENT` naming what is wrong
 * (no slash, an empty part, characters GitHub does not allow, `.` or `..` as the name).
 */
export function parseMirrorRepository(text: string): MirrorRepository {
  const parts = text.split('/');
  const [owner = '', name = ''] = parts;
  const problem =
    parts.length !== 2
      ? 'expected OWNER/NAME'
      : !OWNER.test(owner)
        ? 'the owner may hold only letters, digits and single hyphens (at most 39)'
        : !NAME.test(name) || name === '.' || name === '..'
          ? 'the name may hold only letters, digits, ".", "-" and "_" (at most 100)'
          : undefined;
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid repository ${JSON.stringify(text)}: ${problem}`, {
      details: { repo: text },
    });
  }
  return { owner, name, slug: `${owner}/${name}` };
}

/** File name prefix of each lane's items. */
export const LANE_FILE_KIND: Readonly<Record<MirrorLane, 'issue' | 'pull' | 'discussion'>> = {
  issues: 'issue',
  pulls: 'pull',
  discussions: 'discussion',
};

/** The folder of one repository's mirror, with a trailing slash: `github/<owner>/<repo>/`. */
export function mirrorPrefix(repo: MirrorRepository): string {
  return `github/${repo.owner}/${repo.name}/`;
}

/** The mirror file of one item: `github/<owner>/<repo>/<issue|pull|discussion>-<n>.json`. */
export function mirrorPath(repo: MirrorRepository, lane: MirrorLane, number: number): string {
  return `${mirrorPrefix(repo)}${LANE_FILE_KIND[lane]}-${number}.json`;
}

/** The lane and number of a mirror file name (`issue-42.json`), or `undefined`. */
export function parseMirrorFileName(name: string): { lane: MirrorLane; number: number } | undefined {
  const match = /^(issue|pull|discussion)-([1-9][0-9]{0,9})\.json$/.exec(name);
  if (match === null) return undefined;
  const lane: MirrorLane = match[1] === 'issue' ? 'issues' : match[1] === 'pull' ? 'pulls' : 'discussions';
  return { lane, number: Number(match[2]) };
}
