// Why: callers name an AgentCore memory with one string, `agentcore:<memoryId>?region=...&endpoint=...`,
// and core's registry loads this package for it. This is that scheme: parsing (zod at the
// boundary), a label, the openers of the document store and the native record backends (alone,
// or all three on one SDK client for the registry's openStoreSet), and
// `diagnose` for `repomem doctor`, which checks the mapping, credentials, reachability and
// permissions one by one and says what to fix.
import {
  type OpenStoreContext,
  RepomemError,
  type SchemeContext,
  type StoreDiagnostic,
  type StoreScheme,
  type StoreSchemeSet,
  schemeSetOn,
  type TaskRecordBackend,
} from '@repomem/core';
import { z } from 'zod';
import { assertMemoryId, openAgentCoreConnection } from './connection.js';
import { diagnoseAgentCore } from './diagnose.js';
import { type AgentCoreStore, createAgentCoreStore } from './document-store.js';
import { createAgentCoreTaskRecordBackend } from './task-record-backend.js';
import { type AgentCoreVerifiedBackend, createAgentCoreVerifiedBackend } from './verified-backend.js';

/** A parsed `agentcore:` spec. */
export interface AgentCoreSpecTarget {
  /** Memory id or ARN. */
  readonly memoryId: string;
  /** Region from the spec or the environment (`undefined`: the SDK's profile lookup decides). */
  readonly region?: string;
  /** Endpoint from the spec or the environment (`undefined`: the region's public endpoint). */
  readonly endpoint?: string;
}

const REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d{1,2}$/;

const QuerySchema = z
  .object({
    region: z.string().regex(REGION, { message: 'region must look like us-east-1' }).optional(),
    endpoint: z
      .string()
      .refine(
        (value) => {
          try {
            const url = new URL(value);
            return url.protocol === 'http:' || url.protocol === 'https:';
          } catch {
            return false;
          }
        },
        { message: 'endpoint must be an http:// or https:// URL' },
      )
      .optional(),
  })
  .strict();

/** Parse what follows `agentcore:`; throws `INVALID_ARGUMENT` naming the problem. */
export function parseAgentCoreSpec(rest: string, context: Pick<SchemeContext, 'env'>): AgentCoreSpecTarget {
  const [memoryId = '', query = ''] = rest.split(/\?(.*)/s, 2);
  assertMemoryId(memoryId);
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (key in params) throw new RepomemError('INVALID_ARGUMENT', `parameter ${key} is given twice`);
    params[key] = value;
  }
  const parsed = QuerySchema.safeParse(params);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      parsed.error.issues
        .map((issue) =>
          issue.code === 'unrecognized_keys'
            ? `unknown parameter ${issue.keys.join(', ')} (known: region, endpoint)`
            : `${issue.path.join('.')}: ${issue.message}`,
        )
        .join('; '),
    );
  }
  const region = parsed.data.region ?? context.env.AWS_REGION ?? context.env.AWS_DEFAULT_REGION;
  const endpoint =
    parsed.data.endpoint ?? context.env.AWS_ENDPOINT_URL_BEDROCK_AGENTCORE ?? context.env.AWS_ENDPOINT_URL;
  return {
    memoryId,
    ...(region === undefined || region === '' ? {} : { region }),
    ...(endpoint === undefined || endpoint === '' ? {} : { endpoint }),
  };
}

function connect(target: AgentCoreSpecTarget) {
  return openAgentCoreConnection({
    memoryId: target.memoryId,
    ...(target.region === undefined ? {} : { region: target.region }),
    ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
  });
}

/**
 * The store, the verified-memory backend and the task-record backend on ONE connection (one SDK
 * client). Each facet's close() ends only that facet; the set's close() closes them, then the
 * client, once.
 */
function openSet(target: AgentCoreSpecTarget, repo: string): StoreSchemeSet {
  const connection = connect(target);
  const store = createAgentCoreStore({ connection, repo, ownsConnection: false });
  const verifiedBackend = createAgentCoreVerifiedBackend({ connection, ownsConnection: false });
  const taskRecordBackend = createAgentCoreTaskRecordBackend({ connection, ownsConnection: false });
  return schemeSetOn({ store, verifiedBackend, taskRecordBackend }, () => connection.close());
}

/** The spec of a target, as text. */
export function agentCoreSpecLabel(target: AgentCoreSpecTarget): string {
  const params = new URLSearchParams();
  if (target.region !== undefined) params.set('region', target.region);
  if (target.endpoint !== undefined) params.set('endpoint', target.endpoint);
  const query = params.toString();
  return `agentcore:${target.memoryId}${query === '' ? '' : `?${query}`}`;
}

/**
 * The `agentcore:` store scheme, loaded by core's registry. Grammar
 * `agentcore:<memoryId>[?region=<region>][&endpoint=<url>]`; region and endpoint default to
 * `AWS_REGION` (or the AWS profile) and `AWS_ENDPOINT_URL_BEDROCK_AGENTCORE` / `AWS_ENDPOINT_URL`;
 * credentials come from the AWS SDK's provider chain. The store is scoped to the context's
 * repository.
 *
 * @example
 * ```ts
 * import { openStore } from '@repomem/core';
 * const store = await openStore('agentcore:repomem-a1b2c3d4e5?region=us-east-1', { repo: 'acme/app' });
 * ```
 */
export const storeScheme: StoreScheme<AgentCoreSpecTarget> = {
  scheme: 'agentcore',
  grammar: 'agentcore:<memoryId>[?region=<region>][&endpoint=<url>]',
  parse: (rest, context) => parseAgentCoreSpec(rest, context),
  label: agentCoreSpecLabel,
  open: async (target, context: OpenStoreContext): Promise<AgentCoreStore> =>
    createAgentCoreStore({ connection: connect(target), repo: context.repo }),
  // One SDK client for the store and both record backends (the registry's openStoreSet).
  openSet: async (target, context: OpenStoreContext): Promise<StoreSchemeSet> => openSet(target, context.repo),
  openVerifiedBackend: async (target): Promise<AgentCoreVerifiedBackend> =>
    createAgentCoreVerifiedBackend({ connection: connect(target) }),
  openTaskRecordBackend: async (target): Promise<TaskRecordBackend> =>
    createAgentCoreTaskRecordBackend({ connection: connect(target) }),
  diagnose: async (target, context): Promise<readonly StoreDiagnostic[]> =>
    diagnoseAgentCore({ target, repo: context.repo, connect: () => connect(target) }),
};
