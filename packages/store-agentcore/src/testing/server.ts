// Why: the emulator's HTTP server on 127.0.0.1: routes each request by the model, applies
// authentication, latency, the rate quota and injected faults, validates the input against the
// model, runs the operation and checks its own answer against the model's output shape.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepomemError } from '@repomem/core';
import { EmulatorServiceError, fieldValidationError, notFound, serviceException, throttled } from './errors.js';
import { FaultPlan, QuotaBook, RateLimiter, serviceQuota } from './faults.js';
import { agentCoreMemoryModel } from './model.js';
import type { OperationHandler } from './operations/context.js';
import { eventHandlers } from './operations/events.js';
import { extractionHandlers, seedFailedJob } from './operations/extraction.js';
import { recordHandlers } from './operations/records.js';
import {
  type AgentCoreEmulator,
  type AgentCoreEmulatorFaults,
  type AgentCoreEmulatorOptions,
  DEFAULT_EMULATOR_MEMORY_ID,
  EMULATOR_CREDENTIALS,
  EMULATOR_EXPIRED_SESSION_TOKEN,
  faultsSchema,
  optionsSchema,
} from './options.js';
import { projectToShape } from './project.js';
import { MemoryState, memoryIdOf } from './state.js';
import { type FieldIssue, validateShape } from './validate.js';
import { buildInput, errorBody, readBody, sendError, sendOutput } from './wire.js';

const handlers: Readonly<Record<string, OperationHandler>> = {
  ...eventHandlers,
  ...recordHandlers,
  ...extractionHandlers,
};

/** Default delay of a `slow` fault. */
const DEFAULT_SLOW_MS = 2000;

interface MutableStats {
  requests: number;
  byOperation: Record<string, number>;
  faults: number;
  validationErrors: number;
  throttled: number;
  responseValidationErrors: number;
}

function emptyStats(): MutableStats {
  return { requests: 0, byOperation: {}, faults: 0, validationErrors: 0, throttled: 0, responseValidationErrors: 0 };
}

function authFailure(
  request: IncomingMessage,
  region: string,
  accepted: readonly string[] | 'any',
): EmulatorServiceError | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header === '') {
    return new EmulatorServiceError('MissingAuthenticationTokenException', 403, 'Missing Authentication Token');
  }
  const scope = /Credential=([^/,\s]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(header);
  if (!scope)
    return new EmulatorServiceError('IncompleteSignatureException', 403, 'Authorization header is not SigV4.');
  const [, accessKeyId, signedRegion, service] = scope;
  if (request.headers['x-amz-security-token'] === EMULATOR_EXPIRED_SESSION_TOKEN) {
    return new EmulatorServiceError(
      'ExpiredTokenException',
      403,
      'The security token included in the request is expired',
    );
  }
  if (accepted !== 'any' && !accepted.includes(accessKeyId ?? '')) {
    return new EmulatorServiceError(
      'UnrecognizedClientException',
      403,
      'The security token included in the request is invalid.',
    );
  }
  if (signedRegion !== region) {
    return new EmulatorServiceError(
      'InvalidSignatureException',
      403,
      `Credential should be scoped to a valid region. Region '${signedRegion}' is wrong; expecting '${region}'.`,
    );
  }
  if (service !== 'bedrock-agentcore') {
    return new EmulatorServiceError(
      'InvalidSignatureException',
      403,
      `Credential should be scoped to correct service: 'bedrock-agentcore', not '${service}'.`,
    );
  }
  return undefined;
}

/**
 * Starts the emulator on 127.0.0.1 (a free port unless `port` is given) and resolves once it
 * listens. Close it with `close()`.
 */
export async function startAgentCoreEmulator(options: AgentCoreEmulatorOptions = {}): Promise<AgentCoreEmulator> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new RepomemError('INVALID_ARGUMENT', `Invalid AgentCore emulator options: ${parsed.error.message}`);
  }
  const model = agentCoreMemoryModel();
  const region = options.region ?? 'us-east-1';
  const memoryIds = options.memories ?? [DEFAULT_EMULATOR_MEMORY_ID];
  const memories = new Map(memoryIds.map((id) => [id, new MemoryState(id)]));
  const accepted = options.accessKeyIds ?? [EMULATOR_CREDENTIALS.accessKeyId];
  const checkResponses = options.validateResponses !== false;
  let stats = emptyStats();
  let latencyMs = options.latencyMs ?? 0;
  let limiter = options.requestsPerSecond === undefined ? undefined : new RateLimiter(options.requestsPerSecond);
  const behaviour = { eventOrder: options.eventOrder ?? 'oldest-first' } as const;
  const quotas = options.serviceQuotas ? new QuotaBook() : undefined;
  let faults: AgentCoreEmulatorFaults | undefined = options.faults;
  let plan = faults ? new FaultPlan(faults.rate, faults.kinds, faults.seed ?? 1, faults.maxFaults) : undefined;
  const responseIssues: { operation: string; issues: FieldIssue[] }[] = [];
  // Ends pending latency and slow-fault waits when the emulator closes.
  const closing = new AbortController();
  const wait = (ms: number): Promise<void> => sleep(ms, undefined, { signal: closing.signal });

  const answerError = (response: ServerResponse, operation: string, error: EmulatorServiceError): void => {
    if (checkResponses && model.model.shapes[error.errorType]?.type === 'structure') {
      const issues = validateShape(model, error.errorType, errorBody(error));
      if (issues.length > 0) {
        stats.responseValidationErrors += 1;
        responseIssues.push({ operation, issues });
      }
    }
    sendError(response, error);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    stats.requests += 1;
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    const matched = model.match(request.method ?? 'GET', url.pathname);
    if (matched.kind === 'unmatched') {
      stats.byOperation.UnknownOperation = (stats.byOperation.UnknownOperation ?? 0) + 1;
      sendError(
        response,
        new EmulatorServiceError(
          'UnknownOperationException',
          404,
          `No ${matched.methodMismatch ? 'such method for this path' : 'operation at this path'}: ${request.method} ${url.pathname}`,
        ),
      );
      return;
    }
    const { route, labels } = matched;
    const operation = route.operation;
    stats.byOperation[operation] = (stats.byOperation[operation] ?? 0) + 1;
    const denied = authFailure(request, region, accepted);
    if (denied) return sendError(response, denied);
    if (latencyMs > 0) await wait(latencyMs);
    if (limiter && !limiter.admit(Date.now())) {
      stats.throttled += 1;
      return answerError(response, operation, throttled());
    }
    const fault = plan?.next();
    let truncate = false;
    if (fault) stats.faults += 1;
    switch (fault) {
      case 'throttle':
        return answerError(response, operation, throttled());
      case 'server-error':
        if ((plan?.coin() ?? 0) < 0.5) return answerError(response, operation, serviceException());
        return sendError(response, new EmulatorServiceError('ServiceUnavailableException', 503, 'Service Unavailable'));
      case 'reset':
        request.socket.destroy();
        return;
      case 'slow':
        await wait(faults?.slowMs ?? DEFAULT_SLOW_MS);
        break;
      case 'truncated':
        truncate = true;
        break;
      default:
        break;
    }
    const operationModel = model.operation(operation);
    const input = buildInput(model.structure(operationModel.input.shape), labels, url, request.headers, body);
    const issues = validateShape(model, operationModel.input.shape, input);
    if (issues.length > 0) {
      stats.validationErrors += 1;
      return answerError(response, operation, fieldValidationError(issues));
    }
    const memory = memories.get(memoryIdOf(String(input.memoryId)));
    if (!memory) return answerError(response, operation, notFound(`Memory ${String(input.memoryId)} not found.`));
    if (quotas) {
      const quota = serviceQuota(operation, memory.memoryId, input);
      if (!quotas.admit(quota.key, quota.limit, Date.now())) {
        stats.throttled += 1;
        return answerError(response, operation, throttled());
      }
    }
    const handler = handlers[operation];
    if (!handler) return answerError(response, operation, serviceException(`${operation} is not emulated.`));
    const output = projectToShape(
      model,
      operationModel.output.shape,
      handler({ operation, memory, input, now: Date.now() / 1000, model, behaviour }),
    );
    if (checkResponses) {
      const outputIssues = validateShape(model, operationModel.output.shape, output);
      if (outputIssues.length > 0) {
        stats.responseValidationErrors += 1;
        responseIssues.push({ operation, issues: outputIssues });
        return sendError(
          response,
          serviceException(`Emulator response failed the model's ${operationModel.output.shape} shape.`),
        );
      }
    }
    sendOutput(response, route.responseCode, output, truncate);
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      if (error instanceof EmulatorServiceError) {
        if (error.errorType === 'ValidationException') stats.validationErrors += 1;
        sendError(response, error);
        return;
      }
      sendError(response, serviceException(error instanceof Error ? error.message : String(error)));
    });
  });
  // Longer than any SDK idle period, so a kept-alive socket is never closed under a client reusing it
  // (a spurious ECONNRESET); close() ends every connection anyway.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    region,
    memoryId: memoryIds[0] ?? DEFAULT_EMULATOR_MEMORY_ID,
    stats: () => ({ ...stats, byOperation: { ...stats.byOperation } }),
    resetStats: () => {
      stats = emptyStats();
    },
    setFaults: (next) => {
      if (next !== undefined) {
        const checked = faultsSchema.safeParse(next);
        if (!checked.success) {
          throw new RepomemError('INVALID_ARGUMENT', `Invalid AgentCore emulator faults: ${checked.error.message}`);
        }
      }
      faults = next;
      plan = next ? new FaultPlan(next.rate, next.kinds, next.seed ?? 1, next.maxFaults) : undefined;
    },
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    setRequestsPerSecond: (perSecond) => {
      limiter = perSecond === undefined ? undefined : new RateLimiter(perSecond);
    },
    addFailedExtractionJob: (job, memoryId) => {
      const memory = memories.get(memoryId ?? memoryIds[0] ?? DEFAULT_EMULATOR_MEMORY_ID);
      if (!memory) throw new RepomemError('NOT_FOUND', `The emulator serves no memory ${memoryId}.`);
      return seedFailedJob(memory, job);
    },
    responseIssues: () => responseIssues.map((entry) => ({ operation: entry.operation, issues: [...entry.issues] })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
