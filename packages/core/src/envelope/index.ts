// Why: barrel of the envelope module (public API re-exports).
export * from './envelope.js';
export {
  DEFAULT_LANE,
  ENVELOPE_SCHEMA_VERSION,
  isRouteName,
  KNOWN_ROUTES,
  KNOWN_SOURCE_KINDS,
  LANE_PATTERN,
  LaneSchema,
  RepoSlugSchema,
  ROUTE_PATTERN,
  RouteSchema,
  TARGET_KINDS,
  type TargetKind,
  TargetKindSchema,
} from './fields.js';
export * from './from-event.js';
export { escapeThreadKey, gitRefComponentProblem, readingsOfEncodedThreadKey } from './ref-encoding.js';
// `export *`, not a named re-export: a bundle that imports only the slug check then loads no
// envelope schemas or zod (the CLI's `update` and `search` chunks).
export * from './repo-slug.js';
export * from './thread-key.js';
export type { ValidationIssue } from './validation-issues.js';
export * from './variables.js';
