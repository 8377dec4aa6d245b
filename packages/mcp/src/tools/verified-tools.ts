// Why: the verified-memory tools (store, get_recent, search_by_path, refresh, invalidate,
// supersede, log_applied, read_citation, verify_citations, stats) with the published shapes,
// each a thin call of core's VerifiedMemoryService scoped to the server's repository.
import type { CitationCheck, VerificationResult, VerifiedMemoryService, VerifiedMemoryStats } from '@repomem/core';
import { withConflictRetry } from '../conflict-retry.js';
import type { MemoryMcpContext } from '../context.js';
import {
  ChangeOutput,
  CitationCheckOutput,
  GetRecentInput,
  ImpactInput,
  ImpactOutput,
  InvalidateInput,
  LogAppliedInput,
  MemoriesOutput,
  MemoryIdInput,
  ReadCitationInput,
  SearchByPathInput,
  StatsInput,
  StatsOutput,
  StoreInput,
  StoreOutput,
  SupersedeInput,
  SupersedeOutput,
  VerificationOutput,
  VerifyCitationsInput,
} from '../schemas/verified.js';
import { branchScope, scopedRepo } from '../scope.js';
import { defineTool, type ToolEntry } from './define.js';

/** Seed-shaped verification result: each citation says whether it exists, with its content or error. */
export function verificationOutput(result: VerificationResult) {
  return {
    valid: result.valid,
    citations: result.citations.map((check: CitationCheck) => ({
      path: check.citation.path,
      line_start: check.citation.line_start,
      line_end: check.citation.line_end,
      exists: check.kind === 'valid' || check.kind === 'relocated',
      kind: check.kind,
      ...(check.kind === 'valid' || check.kind === 'relocated' ? { content: check.content } : {}),
      ...(check.kind === 'relocated' ? { relocated: check.relocated } : {}),
      ...(check.kind === 'invalid' || check.kind === 'unavailable' ? { error: check.message } : {}),
    })),
    valid_count: result.valid_count,
    invalid_count: result.invalid_count,
    unavailable_count: result.unavailable_count,
  };
}

function statsOutput(stats: VerifiedMemoryStats) {
  return {
    repo: stats.repo,
    by_status: { ...stats.byStatus },
    expired: stats.expired,
    events: { ...stats.events },
    verification_success_rate: stats.verificationSuccessRate,
  };
}

/** The verified-memory tools over `context` (which must have a service: not in disabled mode). */
export function verifiedTools(context: MemoryMcpContext, service: VerifiedMemoryService): ToolEntry[] {
  const scope = (given: string | undefined): string => scopedRepo(context.repo, given);
  const openWorld = context.citations.openWorld;
  return [
    defineTool({
      name: 'memory.store',
      title: 'Store a verified memory',
      description:
        'Store a durable convention or invariant with the code locations that support it. Every citation is checked against the code now: when one does not hold, nothing is stored and the result is "rejected" with the checks. An active memory with the same subject and scope is superseded by the new one.',
      input: StoreInput,
      output: StoreOutput,
      writes: true,
      idempotent: false,
      openWorld,
      async run({ repo, ...rest }) {
        const learned = await context.learnedOn();
        const outcome = await withConflictRetry(() =>
          service.store({ ...rest, repo: scope(repo), ...(learned === undefined ? {} : { learned_on: learned }) }),
        );
        return outcome.kind === 'stored'
          ? { kind: 'stored' as const, memory: outcome.memory, superseded: [...outcome.superseded] }
          : { kind: 'rejected' as const, checks: [...outcome.checks] };
      },
    }),
    defineTool({
      name: 'memory.get_recent',
      title: 'Recent memories',
      description:
        'Active, unexpired memories of the repository, most recently refreshed first (default 50). Treat each as a hypothesis: read its citations before using it.',
      input: GetRecentInput,
      output: MemoriesOutput,
      writes: false,
      idempotent: true,
      async run({ repo, limit, ref }) {
        return { memories: await service.getRecent(scope(repo), limit, branchScope(context, ref)) };
      },
    }),
    defineTool({
      name: 'memory.search_by_path',
      title: 'Memories citing a file',
      description: 'Active memories with a citation of the given file.',
      input: SearchByPathInput,
      output: MemoriesOutput,
      writes: false,
      idempotent: true,
      async run({ repo, path, ref }) {
        return { memories: await service.searchByPath(scope(repo), path, branchScope(context, ref)) };
      },
    }),
    defineTool({
      name: 'memory.refresh',
      title: 'Refresh a verified memory',
      description:
        'Mark a memory as verified and still useful after reading its citations: updates refreshed_at, counts the verification and renews its expiry. Results: "changed", "not_found", "not_active".',
      input: MemoryIdInput,
      output: ChangeOutput,
      writes: true,
      idempotent: false,
      async run({ repo, memory_id }) {
        return { ...(await withConflictRetry(() => service.refresh(scope(repo), memory_id))) };
      },
    }),
    defineTool({
      name: 'memory.invalidate',
      title: 'Invalidate a memory',
      description:
        'Mark a memory invalid (a citation is missing or contradicts it), with the reason. Results: "changed", "not_found", "not_active".',
      input: InvalidateInput,
      output: ChangeOutput,
      writes: true,
      destructive: true,
      idempotent: true,
      async run({ repo, memory_id, reason }) {
        return { ...(await withConflictRetry(() => service.invalidate(scope(repo), memory_id, reason))) };
      },
    }),
    defineTool({
      name: 'memory.supersede',
      title: 'Supersede a memory with a correction',
      description:
        'Replace a memory with a corrected one, keeping the chain (superseded_by / supersedes). The new citations are checked like memory.store. Results: "superseded", "not_found", "not_active", "rejected".',
      input: SupersedeInput,
      output: SupersedeOutput,
      writes: true,
      destructive: true,
      idempotent: false,
      openWorld,
      async run({ repo, memory_id, ...corrected }) {
        const learned = await context.learnedOn();
        const outcome = await withConflictRetry(() =>
          service.supersede(scope(repo), memory_id, {
            ...corrected,
            ...(learned === undefined ? {} : { learned_on: learned }),
          }),
        );
        return outcome.kind === 'rejected'
          ? { kind: 'rejected' as const, checks: [...outcome.checks] }
          : { ...outcome };
      },
    }),
    defineTool({
      name: 'memory.log_applied',
      title: 'Log that a memory was applied',
      description:
        'Record that a verified memory was used in a task (telemetry); renews its expiry. Results: "changed", "not_found", "not_active".',
      input: LogAppliedInput,
      output: ChangeOutput,
      writes: true,
      idempotent: false,
      async run({ repo, memory_id, details }) {
        return { ...(await withConflictRetry(() => service.logApplied(scope(repo), memory_id, details))) };
      },
    }),
    defineTool({
      name: 'memory.read_citation',
      title: 'Read the code at a citation',
      description:
        'Read the cited lines at a revision (default HEAD). Result kinds: "valid" (with content), "relocated" (the snippet moved; new lines given), "invalid" (with the reason), "unavailable" (the source could not be reached; conclude nothing).',
      input: ReadCitationInput,
      output: CitationCheckOutput,
      writes: false,
      idempotent: true,
      openWorld,
      async run({ repo, citation, ref }) {
        const check = await service.readCitation(scope(repo), citation, ref);
        return { ...check };
      },
    }),
    defineTool({
      name: 'memory.verify_citations',
      title: 'Verify citations',
      description:
        'Check every citation at once: valid is true when all exist (possibly relocated). Each citation says whether it exists, with its content or the error.',
      input: VerifyCitationsInput,
      output: VerificationOutput,
      writes: false,
      idempotent: true,
      openWorld,
      async run({ repo, citations, ref }) {
        return verificationOutput(await service.verifyCitations(scope(repo), citations, ref));
      },
    }),
    defineTool({
      name: 'memory.impact',
      title: 'Memories a change touches',
      description:
        'Before merging a branch: which active memories the diff from base to head touches (renamed files and moved lines are followed). Each is "invalidated" (its cited lines changed or the file was deleted, with the lines), "reanchored" (old and new place), "valid" or "unknown". Reads only. Needs a git citation source.',
      input: ImpactInput,
      output: ImpactOutput,
      writes: false,
      idempotent: true,
      openWorld,
      async run({ repo, base, head }) {
        const report = await service.impact(scope(repo), { base, ...(head === undefined ? {} : { head }) });
        return {
          ...report,
          counts: { ...report.counts },
          touched: report.touched.map((impact) => ({ ...impact, citations: [...impact.citations] })),
        };
      },
    }),
    defineTool({
      name: 'memory.stats',
      title: 'Memory statistics',
      description:
        'Counts of memories by status, expired memories, telemetry events by type, and the verification success rate.',
      input: StatsInput,
      output: StatsOutput,
      writes: false,
      idempotent: true,
      async run({ repo }) {
        return statsOutput(await service.stats(scope(repo)));
      },
    }),
  ];
}
