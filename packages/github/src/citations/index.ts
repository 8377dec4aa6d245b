// Why: barrel of the GitHub citation reader (public API re-exports). The contents-response schema
// and the failure classification stay internal: callers see sources and RepomemError codes.

export { citationReaderScheme, type GitHubCitationReaderTarget } from './citation-reader-scheme.js';
export * from './github-endpoint.js';
export * from './github-reader.js';
