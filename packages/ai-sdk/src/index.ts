// Why: the public entry point of @repomem/ai-sdk; everything exported here is documented API.
export { type RepomemToolsOptions, RepomemToolsOptionsSchema } from './options.js';
export { RecallInput, RecallOutput } from './recall-tool.js';
export { REPOMEM_TOOL_NAMES, type RepomemToolName, type RepomemTools, repomemTools } from './tools.js';
