// Why: the input and output shapes of the task-memory tools (hydrate the context of a task,
// record its episode), reusing core's receipt and episode schemas so the tool and the library
// agree on every field.
import { ContextReceiptSchema, EpisodeInputSchema, ReceiptItemSchema, TaskRecordIdSchema } from '@repomem/core';
import { z } from 'zod';
import { scopeRef } from './verified.js';

/** Input of `memory.hydrate`. */
export const HydrateInput = z.object({
  description: z.string().min(1).max(20_000).describe('What the task is about: its words rank the memories offered.'),
  task_id: TaskRecordIdSchema.optional().describe("Task id: excludes the task's own episode, keys the receipt."),
  user: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('GitHub login of the submitting user (their preferences are read).'),
  files: z
    .array(z.string().min(1).max(300))
    .max(50)
    .optional()
    .describe('Files the task is about: memories scoped to a directory holding one of them rank up.'),
  budget_tokens: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('Budget in estimated tokens (default 2,000).'),
  commit: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Commit the agent works on (verified memories are checked at it).'),
  ref: scopeRef,
  prompt_version: z.string().min(1).max(100).optional().describe('Prompt version of the run, recorded in the receipt.'),
  record_receipt: z
    .boolean()
    .optional()
    .describe("Store the context receipt as the task's receipt record (needs task_id; not in read-only mode)."),
});

const Failure = z.object({
  source: z.string(),
  category: z.string(),
  severity: z.enum(['warning', 'error']),
  message: z.string(),
  code: z.string().optional(),
});
const item = z.looseObject({ id: z.string() });

/** Output of `memory.hydrate`: the context block, its parts by kind, and the receipt. */
export const HydrateOutput = z.object({
  status: z.enum(['ok', 'degraded', 'error']),
  markdown: z.string().describe('The memory block for the prompt ("" when nothing was included).'),
  memory_available: z.boolean(),
  context: z.object({
    rules: z.array(item),
    verified: z.array(item),
    knowledge: z.array(item),
    episodes: z.array(item),
    preferences: z.array(item),
  }),
  dropped: z.array(ReceiptItemSchema),
  warnings: z.array(Failure),
  errors: z.array(Failure),
  receipt: ContextReceiptSchema,
});

/** Input of `memory.record_episode` (what an agent writes at task end). */
export const RecordEpisodeInput = EpisodeInputSchema;

/** Output of `memory.record_episode`: `written`, `unchanged` (already stored as given) or `failed` (with the reason). */
export const RecordEpisodeOutput = z.object({
  kind: z.enum(['written', 'unchanged', 'failed']),
  attempts: z.number().int(),
  episode: z
    .object({
      id: z.string(),
      revision: z.number().int(),
      updated_at: z.string(),
      data: z.record(z.string(), z.unknown()),
    })
    .optional(),
  failure: z
    .object({ category: z.string(), severity: z.string(), message: z.string(), code: z.string().optional() })
    .optional(),
});
