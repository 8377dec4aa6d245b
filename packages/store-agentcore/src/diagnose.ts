// Why: `repomem doctor --store agentcore:...` must tell a user exactly what stops the store from
// working: a malformed memory id, a repository name that cannot become an actorId, no region,
// missing or expired credentials, an endpoint that does not answer (a region or endpoint typo),
// a memory that does not exist, or a permission the caller lacks. Each check runs on its own and
// reports instead of throwing; only read calls are made, so doctor never writes.
import { ListEventsCommand, ListMemoryRecordsCommand, ListSessionsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { isRepomemError, type StoreDiagnostic } from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { CREDENTIAL_SOURCES } from './errors.js';
import { hashedSessionId, namespaceOf, repositoryActorId } from './identifiers.js';
import { MEMORY_ID_PATTERN } from './model-patterns.js';

/** What {@link diagnoseAgentCore} checks. */
export interface AgentCoreDiagnoseInput {
  /** The parsed spec. */
  readonly target: { readonly memoryId: string; readonly region?: string; readonly endpoint?: string };
  /** Repository the store would be scoped to. */
  readonly repo: string;
  /** Opens a connection for the target (called once, closed afterwards). */
  readonly connect: () => AgentCoreConnection;
}

function failure(error: unknown): { detail: string; fix: string } {
  const message = error instanceof Error ? error.message : String(error);
  const service = isRepomemError(error) ? String(error.details?.service ?? '') : '';
  if (/credentials/i.test(message)) {
    return { detail: message, fix: `Provide AWS credentials through ${CREDENTIAL_SOURCES}.` };
  }
  if (service === 'AccessDeniedException' || /denied/i.test(message)) {
    return {
      detail: message,
      fix: 'Grant the IAM actions listed in the @repomem/store-agentcore README on this memory.',
    };
  }
  if (service === 'ResourceNotFoundException') {
    return {
      detail: message,
      fix: 'Check the memory id and region: the memory must exist in that region and account.',
    };
  }
  if (/unreachable|ENOTFOUND|ECONNREFUSED/i.test(message)) {
    return { detail: message, fix: 'Check ?region= and ?endpoint= for a typo, and the network path to the endpoint.' };
  }
  if (/region/i.test(message)) {
    return { detail: message, fix: 'Add ?region=<region> to the store spec or set AWS_REGION.' };
  }
  return { detail: message, fix: 'See the message; retry later if the service was throttling or failing.' };
}

/**
 * Run the checks: memory id, identifier mapping, credentials, then one read per API the store
 * uses (sessions, events, records). Later checks are skipped (reported as failed with the
 * reason) when an earlier one makes them meaningless.
 */
export async function diagnoseAgentCore(input: AgentCoreDiagnoseInput): Promise<StoreDiagnostic[]> {
  const checks: StoreDiagnostic[] = [];
  const { target } = input;
  if (!MEMORY_ID_PATTERN.test(target.memoryId)) {
    checks.push({
      check: 'memory id',
      status: 'failed',
      detail: `${JSON.stringify(target.memoryId)} is not a memory id`,
      fix: 'Use the id AgentCore shows for the memory (name, "-", 10 letters or digits) or its ARN.',
    });
    return checks;
  }
  checks.push({ check: 'memory id', status: 'ok', detail: target.memoryId });
  let actorId: string;
  try {
    actorId = repositoryActorId(input.repo);
    checks.push({
      check: 'identifier mapping',
      status: 'ok',
      detail: `repository ${input.repo} -> actorId ${actorId}; documents under ${namespaceOf([actorId, 'documents'])}, verified memories under ${namespaceOf([actorId, 'knowledge'])}`,
    });
  } catch (error) {
    checks.push({
      check: 'identifier mapping',
      status: 'failed',
      detail: error instanceof Error ? error.message : String(error),
      fix: 'Use a repository name "owner/name" of at most about 120 characters.',
    });
    return checks;
  }
  checks.push({
    check: 'endpoint',
    status: 'ok',
    detail: target.endpoint ?? `the public endpoint of region ${target.region ?? '(from the AWS profile)'}`,
  });
  let connection: AgentCoreConnection;
  try {
    connection = input.connect();
  } catch (error) {
    checks.push({ check: 'client', status: 'failed', ...failure(error) });
    return checks;
  }
  try {
    try {
      const credentials = await connection.client.config.credentials();
      checks.push({ check: 'credentials', status: 'ok', detail: `access key ${credentials.accessKeyId.slice(0, 4)}…` });
    } catch (error) {
      checks.push({
        check: 'credentials',
        status: 'failed',
        detail: `no AWS credentials found (${error instanceof Error ? error.message : String(error)})`,
        fix: `Provide credentials through ${CREDENTIAL_SOURCES}.`,
      });
      return checks;
    }
    const probes: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
      [
        'ListSessions',
        () =>
          connection.send('ListSessions', (client, options) =>
            client.send(new ListSessionsCommand({ memoryId: connection.memoryId, actorId, maxResults: 1 }), options),
          ),
      ],
      [
        'ListEvents',
        () =>
          connection.send('ListEvents', (client, options) =>
            client.send(
              new ListEventsCommand({
                memoryId: connection.memoryId,
                actorId,
                sessionId: hashedSessionId('d', 'MEMORY.md'),
                includePayloads: false,
                maxResults: 1,
              }),
              options,
            ),
          ),
      ],
      [
        'ListMemoryRecords',
        () =>
          connection.send('ListMemoryRecords', (client, options) =>
            client.send(
              new ListMemoryRecordsCommand({
                memoryId: connection.memoryId,
                namespacePath: namespaceOf([actorId]),
                maxResults: 1,
              }),
              options,
            ),
          ),
      ],
    ];
    for (const [operation, probe] of probes) {
      try {
        await probe();
        checks.push({ check: `read access (${operation})`, status: 'ok', detail: 'allowed and answering' });
      } catch (error) {
        checks.push({ check: `read access (${operation})`, status: 'failed', ...failure(error) });
        if (!isRepomemError(error) || error.details?.service !== 'AccessDeniedException') return checks;
      }
    }
    checks.push({
      check: 'write access',
      status: 'warning',
      detail:
        'not checked (doctor never writes); the store needs CreateEvent, BatchCreateMemoryRecords and BatchDeleteMemoryRecords',
      fix: 'Grant the write actions listed in the README if writes fail with "denied".',
    });
    return checks;
  } finally {
    connection.close();
  }
}
