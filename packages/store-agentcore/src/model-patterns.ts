// Why: the identifier rules the service enforces (and the client does not) are written once here,
// copied from the service model's `pattern`/`min`/`max`, so the adapter refuses a bad identifier
// before sending it and the property tests check the mapping against the same rules.

/** `ActorId` of the model: 1..255 characters. */
export const ACTOR_ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9\-_/]*(?::[a-zA-Z0-9\-_/]+)*[a-zA-Z0-9\-_/]*$/;
/** Longest actorId. */
export const MAX_ACTOR_ID_CHARS = 255;
/** `SessionId` of the model: 1..100 characters. */
export const SESSION_ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9\-_]*$/;
/** Longest sessionId. */
export const MAX_SESSION_ID_CHARS = 100;
/** `Namespace` of the model: 1..1024 characters. */
export const NAMESPACE_PATTERN = /^[a-zA-Z0-9/*][a-zA-Z0-9\-_/*]*(?::[a-zA-Z0-9\-_/*]+)*[a-zA-Z0-9\-_/*]*$/;
/** Longest namespace. */
export const MAX_NAMESPACE_CHARS = 1024;
/** `MemoryId` of the model (a bare id or its ARN). */
export const MEMORY_ID_PATTERN =
  /^(arn:(aws|aws-cn|aws-us-gov):bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:memory\/)?[a-zA-Z][a-zA-Z0-9\-_]{0,99}-[a-zA-Z0-9]{10}$/;
/** `MetadataValue.stringValue` of the model: at most 256 of these characters. */
export const METADATA_VALUE_PATTERN = /^[a-zA-Z0-9\s._:/=+@-]*$/;
/** Longest metadata string value. */
export const MAX_METADATA_VALUE_CHARS = 256;
/** `RequestIdentifier` of a batch-created record. */
export const REQUEST_IDENTIFIER_PATTERN = /^[a-zA-Z0-9_-]{1,80}$/;
/** Longest memory record text (`MemoryContent.text`). */
export const MAX_RECORD_TEXT_CHARS = 16_000;
/** Most records in one batch create, update or delete call. */
export const MAX_RECORDS_PER_BATCH = 100;
/** Most payload items in one event. */
export const MAX_PAYLOAD_ITEMS = 100;
/** Most metadata entries on an event. */
export const MAX_EVENT_METADATA_ENTRIES = 15;
/** Largest page of a list call (`maxResults`). */
export const MAX_PAGE_SIZE = 100;
