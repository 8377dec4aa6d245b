// Why: what every operation handler receives and returns, plus the idempotency-token replay the
// service applies to requests carrying a `clientToken`, shared by the handler modules.
import { createHash } from 'node:crypto';
import { validationError } from '../errors.js';
import type { AgentCoreMemoryModel } from '../model.js';
import type { MemoryState } from '../state.js';

/** Emulator-wide choices where the service's behaviour is not pinned down. */
export interface EmulatorBehaviour {
  /** Order of ListEvents results (default `oldest-first`). */
  readonly eventOrder: 'oldest-first' | 'newest-first';
}

/** The request an operation handler serves: its memory, validated input and the clock. */
export interface OperationContext {
  /** Operation name, e.g. `CreateEvent`. */
  readonly operation: string;
  /** The memory resource the request addresses (already resolved). */
  readonly memory: MemoryState;
  /** Input members (labels, query string and body merged), validated against the model. */
  readonly input: Readonly<Record<string, unknown>>;
  /** Epoch seconds at which the request is served. */
  readonly now: number;
  /** The service model. */
  readonly model: AgentCoreMemoryModel;
  /** Emulator-wide behaviour options. */
  readonly behaviour: EmulatorBehaviour;
}

/** Serves one operation: returns its output members or throws an `EmulatorServiceError`. */
export type OperationHandler = (context: OperationContext) => unknown;

function fingerprint(input: Readonly<Record<string, unknown>>): string {
  const { clientToken: _token, ...rest } = input;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}

/**
 * Runs `serve` once per `clientToken`: a repeat with the same token and the same members gets
 * the first answer again; the same token with other members is a ValidationException.
 */
export function idempotent(context: OperationContext, serve: () => unknown): unknown {
  const token = context.input.clientToken;
  if (typeof token !== 'string') return serve();
  const key = `${context.operation}\n${token}`;
  const print = fingerprint(context.input);
  const previous = context.memory.idempotency.get(key);
  if (previous) {
    if (previous.fingerprint !== print) {
      throw validationError(
        'IdempotentParameterMismatchException',
        'The clientToken was already used with different request parameters.',
      );
    }
    return previous.output;
  }
  const output = serve();
  context.memory.idempotency.set(key, { fingerprint: print, output });
  return output;
}
