// Why: GitHub lists only what a repository holds now, so an item deleted or transferred away
// simply stops appearing and a sync would never notice. After a complete walk the number of
// mirror files of each kind is compared with GitHub's count; only when the mirror holds more are
// the numbers listed (100 per request) and the missing ones looked up, so each is reported as
// deleted or transferred (with where it went). Files are kept: they are the agent's history.
import type { MemoryStore } from '@repomem/core';
import { z } from 'zod';
import { PageInfoSchema } from './graphql-nodes.js';
import { MIRROR_LANES, type MirrorLane, numbersQuery, whereaboutsQuery } from './graphql-selections.js';
import type { GraphQLAnswer } from './mirror-client.js';
import { type MirrorRepository, mirrorPath, mirrorPrefix, parseMirrorFileName } from './mirror-paths.js';
import type { VanishedItem } from './mirror-state.js';

/** An item whose file is in the mirror but which the repository no longer holds. */
export interface VanishedReport {
  /** Its kind: `issues`, `pulls` or `discussions`. */
  readonly lane: MirrorLane;
  /** Its number in the repository it was mirrored from. */
  readonly number: number;
  /** Its mirror file (kept). */
  readonly path: string;
  /** `transferred`: GitHub shows it in another repository; `gone`: deleted, transferred or hidden from the token. */
  readonly reason: 'gone' | 'transferred';
  /** `owner/name` it was transferred to. */
  readonly movedTo?: string;
}

interface FindVanishedInput {
  readonly store: MemoryStore;
  readonly repo: MirrorRepository;
  readonly send: (query: string, variables: Record<string, unknown>) => Promise<GraphQLAnswer>;
  /** GitHub's item count per lane (lanes without one are not checked). */
  readonly totals: Partial<Record<MirrorLane, number | undefined>>;
  /** Items already reported by earlier runs (not reported again). */
  readonly known: Partial<Record<MirrorLane, readonly VanishedItem[]>>;
}

const NumbersPageSchema = z.object({
  list: z.object({ nodes: z.array(z.object({ number: z.number().int() }).nullable()), pageInfo: PageInfoSchema }),
});

const WhereaboutsSchema = z
  .object({ number: z.number().int(), url: z.string(), repository: z.object({ nameWithOwner: z.string() }) })
  .nullable()
  .optional();

async function listNumbers(input: FindVanishedInput, lane: MirrorLane): Promise<Set<number>> {
  const numbers = new Set<number>();
  let after: string | null = null;
  for (;;) {
    const answer = await input.send(numbersQuery(lane), { owner: input.repo.owner, name: input.repo.name, after });
    const parsed = NumbersPageSchema.safeParse((answer.data as { repository?: unknown } | null)?.repository);
    if (!parsed.success) return numbers;
    for (const node of parsed.data.list.nodes) if (node !== null) numbers.add(node.number);
    if (!parsed.data.list.pageInfo.hasNextPage || parsed.data.list.pageInfo.endCursor === null) return numbers;
    after = parsed.data.list.pageInfo.endCursor;
  }
}

/** Items of the mirror that left the repository since they were mirrored (see the module comment). */
export async function findVanishedItems(input: FindVanishedInput): Promise<VanishedReport[]> {
  const prefix = mirrorPrefix(input.repo);
  const mirrored: Record<MirrorLane, Set<number>> = { issues: new Set(), pulls: new Set(), discussions: new Set() };
  for (const entry of await input.store.list(prefix)) {
    const parsed = parseMirrorFileName(entry.path.slice(prefix.length));
    if (parsed !== undefined) mirrored[parsed.lane].add(parsed.number);
  }
  const reports: VanishedReport[] = [];
  for (const lane of MIRROR_LANES) {
    const total = input.totals[lane];
    if (total === undefined) continue;
    const known = new Set(input.known[lane] ?? []);
    const present = [...mirrored[lane]].filter((number) => !known.has(number));
    if (present.length <= total) continue;
    const listed = await listNumbers(input, lane);
    const missing = present.filter((number) => !listed.has(number)).sort((a, b) => a - b);
    for (let start = 0; start < missing.length; start += 50) {
      const batch = missing.slice(start, start + 50);
      const { query, variables } = whereaboutsQuery(lane, batch);
      const answer = await input.send(query, { owner: input.repo.owner, name: input.repo.name, ...variables });
      const repository = ((answer.data as { repository?: Record<string, unknown> } | null)?.repository ?? {}) as Record<
        string,
        unknown
      >;
      batch.forEach((number, index) => {
        const found = WhereaboutsSchema.safeParse(repository[`m${index}`]);
        const where = found.success ? found.data : null;
        const path = mirrorPath(input.repo, lane, number);
        if (where === null || where === undefined) {
          reports.push({ lane, number, path, reason: 'gone' });
        } else if (where.repository.nameWithOwner.toLowerCase() !== input.repo.slug.toLowerCase()) {
          reports.push({ lane, number, path, reason: 'transferred', movedTo: where.repository.nameWithOwner });
        }
      });
    }
  }
  return reports;
}

/** The reports as the sync state records them (numbers per lane), so later runs do not report them again. */
export function vanishedForState(reports: readonly VanishedReport[]): Partial<Record<MirrorLane, VanishedItem[]>> {
  const byLane: Partial<Record<MirrorLane, VanishedItem[]>> = {};
  for (const report of reports) byLane[report.lane] = [...(byLane[report.lane] ?? []), report.number];
  return byLane;
}
