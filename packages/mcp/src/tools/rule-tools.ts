// Why: a maintainer's client (or an agent helping one) can see which review rules wait for a
// decision and why, but nothing over MCP can approve or reject one: a rule becomes active only by
// a person's `repomem rules approve`, never by a tool an agent could be talked into calling.
import { listRules, type TaskRecordBackend } from '@repomem/core';
import type { MemoryMcpContext } from '../context.js';
import { ListRulesInput, ListRulesOutput } from '../schemas/rules.js';
import { defineTool, type ToolEntry } from './define.js';

/** `memory.list_rules` (read-only) over a task-record backend. */
export function ruleTools(context: MemoryMcpContext, backend: TaskRecordBackend): ToolEntry[] {
  return [
    defineTool({
      name: 'memory.list_rules',
      title: 'Review rules and their status',
      description:
        'Review rules of the repository by status (default "pending": the rules waiting for a maintainer, each with the reasons it was not made active). Read-only: a rule is approved or rejected only by a maintainer with `repomem rules approve|reject <id>`, never through this server.',
      input: ListRulesInput,
      output: ListRulesOutput,
      writes: false,
      idempotent: true,
      async run(input) {
        const rules = await listRules(backend, context.repo, {
          status: input.status ?? 'pending',
          ...(input.limit === undefined ? {} : { limit: input.limit }),
        });
        return {
          status: input.status ?? 'pending',
          rules: rules.map((rule) => ({
            id: rule.id,
            rule: rule.data.rule,
            ...(rule.data.scope === undefined ? {} : { scope: rule.data.scope }),
            status: rule.data.status,
            weight: rule.data.weight,
            reviewer: rule.data.provenance.reviewer,
            ...(rule.data.provenance.pr === undefined ? {} : { pr: rule.data.provenance.pr }),
            reasons: rule.data.pending_reasons.map((reason) => ({ reason: reason.reason, message: reason.message })),
            ...(rule.data.decision === undefined
              ? {}
              : { decided_by: rule.data.decision.by, decision: rule.data.decision.action }),
          })),
        };
      },
    }),
  ];
}
