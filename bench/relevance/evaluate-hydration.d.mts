// Why: types of the hydration relevance scorer for core's type-checked fast test.
export interface TaskRecall {
  readonly id: string;
  readonly heldOut: boolean;
  readonly recall: number;
  readonly missed: readonly string[];
  readonly reasons: readonly string[];
  readonly warnings: number;
  readonly items: readonly {
    key: string;
    score: number;
    tokens: number;
    included: boolean;
    reason?: string;
    needed: boolean;
  }[];
}
export interface HydrationEvaluation {
  readonly budgets: Record<
    number,
    { readonly tuning: number; readonly heldOut: number; readonly perTask: readonly TaskRecall[] }
  >;
  readonly tasks: { readonly tuning: number; readonly heldOut: number };
}
export function loadMonorepoMemory(core: unknown, backend: unknown): Promise<Map<string, string>>;
export function evaluateHydration(
  core: unknown,
  options?: { readonly budgets?: readonly number[]; readonly semantic?: unknown; readonly backend?: unknown },
): Promise<HydrationEvaluation>;
