// Why: the input and output shapes of `memory.list_rules`, with the statuses from core so the
// tool and the library agree.
import { RULE_STATUSES } from '@repomem/core';
import { z } from 'zod';

/** Input of `memory.list_rules`. */
export const ListRulesInput = z.object({
  status: z
    .enum(RULE_STATUSES)
    .optional()
    .describe('Which rules: pending (default), active, refused, superseded or expired.'),
  limit: z.number().int().min(1).max(500).optional().describe('Most rules returned (strongest first).'),
});

/** Output of `memory.list_rules`. */
export const ListRulesOutput = z.object({
  status: z.enum(RULE_STATUSES),
  rules: z.array(
    z.object({
      id: z.string(),
      rule: z.string(),
      scope: z.string().optional(),
      status: z.enum(RULE_STATUSES),
      weight: z.number(),
      reviewer: z.string(),
      pr: z.number().optional(),
      reasons: z.array(z.object({ reason: z.string(), message: z.string() })),
      decided_by: z.string().optional(),
      decision: z.enum(['approved', 'rejected']).optional(),
    }),
  ),
});
