// Why: the AI SDK's own test model stands in for an LLM: each generation step answers with the
// tool calls a test scripts (the SDK validates and executes them exactly as for a real model),
// and the last step answers with text.
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** One scripted tool call. */
export interface ScriptedCall {
  readonly toolName: string;
  readonly input: unknown;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model that makes `steps[i]` tool calls at step `i`, then says `done`. */
export function scriptedModel(steps: readonly (readonly ScriptedCall[])[]): MockLanguageModelV4 {
  const results: LanguageModelV4GenerateResult[] = [
    ...steps.map((calls, step) => ({
      content: calls.map((scripted, index) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${step}-${index}`,
        toolName: scripted.toolName,
        input: JSON.stringify(scripted.input),
      })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    })),
    { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ];
  return new MockLanguageModelV4({ doGenerate: results });
}
