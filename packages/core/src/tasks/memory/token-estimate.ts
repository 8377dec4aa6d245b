// Why: hydration fills a token budget without a tokenizer (core loads no model files and must
// stay fast), so the estimate is a named, documented rule a caller can swap for an exact one.
import { codePointLength } from '../../search/tokenizer.js';

/** A named way of estimating how many model tokens a text costs. */
export interface TokenEstimator {
  /** Name recorded in context receipts, so two receipts are comparable only when it matches. */
  readonly name: string;
  /** Estimated tokens of `text` (a non-negative integer). */
  estimate(text: string): number;
}

/**
 * The default estimator, `chars/4`: one token per four characters (Unicode code points),
 * rounded up, the rule of thumb for English text and code with BPE tokenizers (seed: 2,000
 * tokens ≈ 8,000 characters). It overestimates prose slightly and underestimates dense CJK
 * text; pass an exact estimator (for example one wrapping a model's tokenizer) when it matters.
 */
export const CHARS_PER_TOKEN_ESTIMATOR: TokenEstimator = Object.freeze({
  name: 'chars/4',
  estimate: (text: string): number => Math.ceil(codePointLength(text) / 4),
});

/** Default hydration budget, in estimated tokens. */
export const DEFAULT_HYDRATION_BUDGET_TOKENS = 2000;
