// Why: public entry of @repomem/store-agentcore/testing: the wire-level AgentCore Memory emulator.
/**
 * A local, wire-level emulator of the Amazon Bedrock AgentCore Memory data plane, for testing
 * code that uses the real `@aws-sdk/client-bedrock-agentcore` client.
 *
 * - Listens on 127.0.0.1 only and speaks restJson1 as the SDK expects: every `/memories/...`
 *   route and success status comes from the shipped service model (`model/`, Apache-2.0, see its
 *   NOTICE), timestamps travel as epoch seconds, errors carry `x-amzn-errortype` and a JSON
 *   `message`, list operations page with opaque `nextToken`s and `maxResults` (default 20).
 * - Validates every request against the model (required members, lengths, patterns, list and
 *   map sizes, enums, numeric ranges) and answers `ValidationException` with reason
 *   `FieldValidationFailed` and a `fieldList` in the service's wording; list and retrieve also
 *   need exactly one of `namespace` (exact match) or `namespacePath` (string prefix).
 * - Events are immutable and listed by eventTimestamp, then creation order; records are at most
 *   16,000 characters and are readable at once after a batch write. RetrieveMemoryRecords ranks
 *   by word overlap (a stand-in for semantic search) with topK, strategy and metadata filters.
 *   Long-term extraction is a no-op: records appear only through direct batch writes;
 *   extraction-job operations answer validly (seed failed jobs with `addFailedExtractionJob`).
 * - Checks its own responses against the model's output shapes (`stats().responseValidationErrors`).
 * - Latency, a requests-per-second quota (429 `ThrottledException`) and seeded faults
 *   (throttle, 5xx, connection reset, slow answer, body cut mid-way).
 *
 * @example
 * ```ts
 * import { BedrockAgentCoreClient, CreateEventCommand } from '@aws-sdk/client-bedrock-agentcore';
 * import { EMULATOR_CREDENTIALS, startAgentCoreEmulator } from '@repomem/store-agentcore/testing';
 *
 * const emulator = await startAgentCoreEmulator({ latencyMs: 5 });
 * const client = new BedrockAgentCoreClient({
 *   endpoint: emulator.endpoint,
 *   region: emulator.region,
 *   credentials: EMULATOR_CREDENTIALS,
 * });
 * await client.send(
 *   new CreateEventCommand({
 *     memoryId: emulator.memoryId,
 *     actorId: 'vercel/next-js',
 *     sessionId: 'task-1',
 *     eventTimestamp: new Date(),
 *     payload: [{ conversational: { role: 'USER', content: { text: 'hello' } } }],
 *   }),
 * );
 * client.destroy();
 * await emulator.close();
 * ```
 *
 * @packageDocumentation
 */

export {
  EMULATOR_COMMAND_USAGE,
  type EmulatorCommandArguments,
  type EmulatorCommandIo,
  parseEmulatorArguments,
  runEmulatorCommand,
} from './command.js';
export { SERVICE_QUOTAS_TPS } from './faults.js';
export { AGENTCORE_MODEL_NOTICE } from './model/notice.js';
export type {
  AgentCoreMemoryModel,
  ModelMember,
  ModelOperation,
  ModelRoute,
  ModelShape,
  ModelStructure,
  ServiceModel,
} from './model.js';
export {
  agentCoreMemoryModel,
  ModelMemberSchema,
  ModelOperationSchema,
  ModelShapeSchema,
  ModelStructureSchema,
  ServiceModelSchema,
} from './model.js';
export type { FailedExtractionJobSeed } from './operations/extraction.js';
export { DEFAULT_TOP_K, EMULATOR_DIRECT_STRATEGY_ID } from './operations/records.js';
export {
  type AgentCoreEmulator,
  type AgentCoreEmulatorFaults,
  type AgentCoreEmulatorOptions,
  type AgentCoreEmulatorStats,
  DEFAULT_EMULATOR_MEMORY_ID,
  EMULATOR_CREDENTIALS,
  EMULATOR_EXPIRED_SESSION_TOKEN,
} from './options.js';
export { startAgentCoreEmulator } from './server.js';
export type { FieldIssue } from './validate.js';
export { validateShape } from './validate.js';

/** Package name, for messages. */
export const TESTING_PACKAGE_NAME = '@repomem/store-agentcore/testing';
