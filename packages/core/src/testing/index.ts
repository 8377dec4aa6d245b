// Why: the published conformance suite entry point (@repomem/core/testing).
export {};
