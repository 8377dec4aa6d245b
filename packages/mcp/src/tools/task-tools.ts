// Why: task memory at the two moments an agent needs it: `memory.hydrate` at task start (review
// rules, verified memories checked against the code now, learnings, similar past episodes and
// user preferences, within a token budget, with a receipt saying what was left out and why) and
// `memory.record_episode` at task end (idempotent by task id).
import { hydrate, RepomemError, type TaskRecordBackend, type VerifiedMemoryService, writeEpisode } from '@repomem/core';
import { lazyReader } from '../citation-source.js';
import type { MemoryMcpContext } from '../context.js';
import { readOnlyRecall } from '../read-only-recall.js';
import { HydrateInput, HydrateOutput, RecordEpisodeInput, RecordEpisodeOutput } from '../schemas/tasks.js';
import { defineTool, type ToolEntry } from './define.js';

/** Hydration's `branch`: the call's `ref`, else the server's branch (else the reader's current one). */
function branchOf(context: MemoryMcpContext, ref: string | undefined): { branch?: string } {
  const branch = ref ?? context.branch;
  return branch === undefined ? {} : { branch };
}

/** `memory.hydrate` and `memory.record_episode` over a task-record backend. */
export function taskTools(
  context: MemoryMcpContext,
  backend: TaskRecordBackend,
  service: VerifiedMemoryService,
): ToolEntry[] {
  const readOnly = context.mode !== 'enabled';
  const verified = readOnly ? readOnlyRecall(service) : service;
  return [
    defineTool({
      name: 'memory.hydrate',
      title: 'Memory for a task',
      description:
        'The memory to put in front of a task, as one Markdown block within a token budget: review rules, verified memories (checked against the code now), repository learnings, similar past tasks and the user\'s preferences. The receipt lists every candidate, included or dropped and why. A failing source is left out and reported (status "degraded" or "error").' +
        (readOnly
          ? ' Read-only here: nothing is recorded.'
          : ' Verified memories checked now are refreshed or invalidated.'),
      input: HydrateInput,
      output: HydrateOutput,
      writes: !readOnly,
      idempotent: readOnly,
      openWorld: context.citations.openWorld,
      async run(input) {
        if (input.record_receipt === true && readOnly) {
          throw new RepomemError('READ_ONLY', 'memory is read-only on this server: the receipt cannot be recorded');
        }
        const result = await hydrate({
          backend,
          repo: context.repo,
          verified,
          task: {
            description: input.description,
            ...(input.task_id === undefined ? {} : { id: input.task_id }),
            ...(input.user === undefined ? {} : { user: input.user }),
            ...(input.files === undefined ? {} : { files: input.files }),
          },
          ...(input.budget_tokens === undefined ? {} : { budgetTokens: input.budget_tokens }),
          ...(input.commit === undefined ? {} : { commit: input.commit }),
          // Branch scope: the tool's ref, else the server's branch; the history is the citation source's.
          ...branchOf(context, input.ref),
          history: lazyReader(context.citations),
          ...(input.prompt_version === undefined ? {} : { promptVersion: input.prompt_version }),
          ...(context.semantic === undefined ? {} : { semantic: context.semantic }),
          recordReceipt: input.record_receipt === true,
        });
        return {
          status: result.status,
          markdown: result.markdown,
          memory_available: result.memoryAvailable,
          // Spread into plain objects: the output schema's items are open records.
          context: {
            rules: result.context.rules.map((entry) => ({ ...entry })),
            verified: result.context.verified.map((entry) => ({ ...entry })),
            knowledge: result.context.knowledge.map((entry) => ({ ...entry })),
            episodes: result.context.episodes.map((entry) => ({ ...entry })),
            preferences: result.context.preferences.map((entry) => ({ ...entry })),
          },
          dropped: result.dropped,
          warnings: result.warnings,
          errors: result.errors,
          receipt: result.receipt,
        };
      },
    }),
    defineTool({
      name: 'memory.record_episode',
      title: 'Record the episode of a task',
      description:
        'At task end, record what happened (status, approach, difficulties, files changed, pull request...), keyed by task id: writing the same episode again changes nothing ("unchanged"), more information updates it. Later tasks see similar episodes through memory.hydrate. A transient store failure is returned as "failed", never thrown.',
      input: RecordEpisodeInput,
      output: RecordEpisodeOutput,
      writes: true,
      idempotent: true,
      async run(episode) {
        const learnedOn = await context.learnedOn();
        const result = await writeEpisode({
          backend,
          repo: context.repo,
          episode,
          ...(learnedOn === undefined ? {} : { learnedOn }),
        });
        if (result.kind === 'failed')
          return { kind: 'failed' as const, attempts: result.attempts, failure: result.failure };
        return {
          kind: result.kind,
          attempts: result.attempts,
          episode: { ...result.episode, data: { ...result.episode.data } },
        };
      },
    }),
  ];
}
