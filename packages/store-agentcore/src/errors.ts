// Why: callers branch on repomem's stable error codes, not on AWS exception classes. Every error
// the client or the service produces is mapped here once, keeping the service's reason (the
// ValidationException field list, the exception name) in the message and details, and turning a
// missing or expired credential into one readable sentence naming where credentials come from.
import { RepomemError, type RepomemErrorCode } from '@repomem/core';

/** The shape of an error thrown by the AWS SDK (only the fields read here). */
interface AwsErrorLike {
  readonly name?: string;
  readonly message?: string;
  readonly code?: string;
  readonly reason?: string;
  readonly fieldList?: ReadonlyArray<{ readonly name?: string; readonly message?: string }>;
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly $fault?: string;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'UND_ERR_SOCKET']);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'CERT_HAS_EXPIRED']);
const RETRYABLE_NAMES = new Set([
  'ThrottledException',
  'ThrottlingException',
  'ServiceException',
  'InternalServerException',
  'RetryableConflictException',
  'TimeoutError',
  'RequestTimeout',
  'SyntaxError',
]);
const CREDENTIAL_NAMES = new Set([
  'CredentialsProviderError',
  'ExpiredTokenException',
  'ExpiredToken',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'TokenRefreshRequired',
]);

function fields(error: unknown): AwsErrorLike {
  return typeof error === 'object' && error !== null ? (error as AwsErrorLike) : { message: String(error) };
}

function errorCode(error: AwsErrorLike): string | undefined {
  const direct = error.code;
  if (typeof direct === 'string') return direct;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * True for a failure worth retrying: throttling, a server error, a retryable conflict, a reset
 * or timed-out connection, or a response cut mid-body. Client errors (validation, access,
 * missing resources, credentials) and an unreachable endpoint are not retried.
 */
export function isRetryableAgentCoreError(error: unknown): boolean {
  const value = fields(error);
  const name = value.name ?? '';
  if (CREDENTIAL_NAMES.has(name)) return false;
  if (RETRYABLE_NAMES.has(name)) return true;
  const code = errorCode(value);
  if (code !== undefined && NETWORK_CODES.has(code)) return true;
  if (code !== undefined && UNREACHABLE_CODES.has(code)) return false;
  const status = value.$metadata?.httpStatusCode;
  if (status !== undefined && (status >= 500 || status === 429)) return true;
  const message = value.message ?? '';
  return /socket hang up|Deserialization error|Unexpected end of JSON|aborted|premature close|ECONNRESET/i.test(
    message,
  );
}

/** Where the SDK looks for credentials, for messages. */
export const CREDENTIAL_SOURCES =
  'the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) environment variables, the AWS_PROFILE profile in ~/.aws/credentials and ~/.aws/config (SSO included), a web identity token, or the container/instance role';

function describeFieldList(value: AwsErrorLike): string {
  const list = value.fieldList ?? [];
  if (list.length === 0) return '';
  return ` (${list.map((field) => `${field.name ?? '?'}: ${field.message ?? 'invalid'}`).join('; ')})`;
}

/**
 * Map an error from the AWS SDK or the service to a `RepomemError`: credentials and access
 * -> `BACKEND_UNAVAILABLE` explaining the credential sources or the missing permission;
 * `ValidationException`/`InvalidInputException` -> `INVALID_ARGUMENT` with the field list;
 * `ResourceNotFoundException` -> `NOT_FOUND`; quota, throttling, server errors and the network
 * -> `BACKEND_UNAVAILABLE`. The original error is kept as `cause`; a RepomemError passes through.
 */
export function mapAgentCoreError(error: unknown, operation: string, memoryId: string): RepomemError {
  if (error instanceof RepomemError) return error;
  const value = fields(error);
  const name = value.name ?? 'Error';
  const reason = value.message ?? String(error);
  const details = { operation, memoryId, service: name, reason };
  const make = (code: RepomemErrorCode, message: string): RepomemError =>
    new RepomemError(code, message, { cause: error, details });
  if (name === 'InvalidSignatureException' && /region/i.test(reason)) {
    return make(
      'INVALID_ARGUMENT',
      `AgentCore ${operation}: the request was signed for the wrong region (${reason}). Check ?region= in the store spec or AWS_REGION: it must be the memory's region.`,
    );
  }
  if (CREDENTIAL_NAMES.has(name) || /credential|security token|expired token/i.test(name)) {
    return make(
      'BACKEND_UNAVAILABLE',
      `AgentCore ${operation} failed: no valid AWS credentials (${name}: ${reason}). Credentials are read from ${CREDENTIAL_SOURCES}; refresh or set them and try again.`,
    );
  }
  if (name === 'AccessDeniedException' || value.$metadata?.httpStatusCode === 403) {
    return make(
      'BACKEND_UNAVAILABLE',
      `AgentCore ${operation} on memory ${memoryId} was denied: ${reason}. Grant the caller bedrock-agentcore:${operation} on this memory (see the @repomem/store-agentcore README for the full list).`,
    );
  }
  if (name === 'ValidationException' || name === 'InvalidInputException') {
    return make('INVALID_ARGUMENT', `AgentCore refused ${operation}: ${reason}${describeFieldList(value)}`);
  }
  if (name === 'ResourceNotFoundException') {
    return make('NOT_FOUND', `AgentCore ${operation}: not found on memory ${memoryId}: ${reason}`);
  }
  if (name === 'ServiceQuotaExceededException') {
    return make('BACKEND_UNAVAILABLE', `AgentCore ${operation}: a service quota is exhausted: ${reason}`);
  }
  const code = errorCode(value);
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return make(
      'BACKEND_UNAVAILABLE',
      `AgentCore endpoint unreachable during ${operation} (${code}): ${reason}. Check the region and endpoint (a typo in either names a host that does not exist).`,
    );
  }
  if (isRetryableAgentCoreError(error)) {
    return make('BACKEND_UNAVAILABLE', `AgentCore ${operation} kept failing after retries (${name}): ${reason}`);
  }
  return make('BACKEND_UNAVAILABLE', `AgentCore ${operation} failed (${name}): ${reason}`);
}
