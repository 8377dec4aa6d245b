// Why: task hydration offers verified memories only once they are checked against the code, and
// core's `recall` records that check (refresh, invalidate). A read-only server must not write,
// so it checks the same way without recording: memories whose citations hold (re-anchored where
// lines moved) are offered, the others are left out, and nothing changes in the store.
import type { RecallOptions, RecallResult, VerifiedMemoryService } from '@repomem/core';

/** `recall` that verifies like core's but never writes (for read-only servers). */
export function readOnlyRecall(service: VerifiedMemoryService): Pick<VerifiedMemoryService, 'recall'> {
  return {
    async recall(repo: string, options: RecallOptions = {}): Promise<RecallResult> {
      const memories = await service.getRecent(repo, options.limit, {
        ...(options.ref === undefined ? {} : { ref: options.ref }),
        ...(options.branch === undefined ? {} : { branch: options.branch }),
      });
      const checked = await Promise.all(
        memories.map(async (memory) => ({
          memory,
          result: await service.verifyCitations(repo, memory.citations, options.ref),
        })),
      );
      const result: RecallResult = { memories: [], invalidated: [], unverified: [] };
      const valid = result.memories as RecallResult['memories'][number][];
      const unverified = result.unverified as RecallResult['unverified'][number][];
      for (const { memory, result: verification } of checked) {
        if (verification.valid && verification.unavailable_count === 0) {
          const citations = verification.citations.map((check) =>
            check.kind === 'relocated' ? check.relocated : check.citation,
          );
          valid.push({ ...memory, citations });
        } else {
          unverified.push({ memory, checks: verification.citations });
        }
      }
      return result;
    },
  };
}
