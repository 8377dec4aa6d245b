// Why: barrel of review-rule memory (Tier 2): extraction prompt, parsing, injection screen,
// storage and life cycle of `rule` task records.
export * from './extraction-prompt.js';
export * from './injection-screen.js';
export * from './manual-rule.js';
export * from './parse-rule-output.js';
export * from './review-extraction.js';
export * from './review-feedback.js';
export * from './reviewer-authority.js';
export * from './rule-book.js';
export * from './rule-classifier.js';
export * from './rule-convention.js';
export * from './rule-record.js';
export * from './rule-render.js';
export * from './rule-similarity.js';
export * from './rule-subjects.js';
export * from './rule-text-normalize.js';
export * from './suspicious-characters.js';
