// Why: the emulator's single source of truth is the official service model (routes, statuses,
// shapes and constraints); this module parses the shipped JSON once with zod and exposes typed
// lookups, so routes and validation are derived from the model rather than written twice.
import { z } from 'zod';
import rawModel from './model/agentcore-memory-model.json' with { type: 'json' };
import { AGENTCORE_MODEL_NOTICE } from './model/notice.js';

const shapeRefSchema = z.object({ shape: z.string() });

/** zod schema of a structure member in the service model. */
export const ModelMemberSchema = z.object({
  shape: z.string(),
  location: z.enum(['uri', 'querystring', 'header', 'headers']).optional(),
  locationName: z.string().optional(),
  idempotencyToken: z.boolean().optional(),
});

/** zod schema of a structure shape in the service model. */
export const ModelStructureSchema = z.object({
  type: z.literal('structure'),
  members: z.record(z.string(), ModelMemberSchema),
  required: z.array(z.string()).optional(),
  union: z.boolean().optional(),
  document: z.boolean().optional(),
  exception: z.boolean().optional(),
  fault: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  error: z.object({ httpStatusCode: z.number().int(), senderFault: z.boolean().optional() }).optional(),
});

const listSchema = z.object({
  type: z.literal('list'),
  member: shapeRefSchema,
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});

const mapSchema = z.object({
  type: z.literal('map'),
  key: shapeRefSchema,
  value: shapeRefSchema,
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});

const stringSchema = z.object({
  type: z.literal('string'),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  pattern: z.string().optional(),
  enum: z.array(z.string()).optional(),
  sensitive: z.boolean().optional(),
});

const numberSchema = z.object({
  type: z.enum(['integer', 'long', 'double', 'float']),
  min: z.number().optional(),
  max: z.number().optional(),
  box: z.boolean().optional(),
});

const scalarSchema = z.object({ type: z.enum(['boolean', 'timestamp', 'blob']), box: z.boolean().optional() });

/** zod schema of any shape in the service model. */
export const ModelShapeSchema = z.discriminatedUnion('type', [
  ModelStructureSchema,
  listSchema,
  mapSchema,
  stringSchema,
  numberSchema,
  scalarSchema,
]);

/** zod schema of an operation in the service model. */
export const ModelOperationSchema = z.object({
  name: z.string(),
  http: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']),
    requestUri: z.string(),
    responseCode: z.number().int(),
  }),
  input: shapeRefSchema,
  output: shapeRefSchema,
  errors: z.array(shapeRefSchema).default([]),
  idempotent: z.boolean().optional(),
  readonly: z.boolean().optional(),
});

/** zod schema of the service model file (the parts the emulator reads). */
export const ServiceModelSchema = z.object({
  metadata: z.object({
    apiVersion: z.string(),
    protocol: z.string(),
    signingName: z.string(),
    endpointPrefix: z.string(),
    serviceId: z.string(),
  }),
  operations: z.record(z.string(), ModelOperationSchema),
  shapes: z.record(z.string(), ModelShapeSchema),
});

/** One shape of the service model (structure, list, map, string, number or scalar). */
export type ModelShape = z.infer<typeof ModelShapeSchema>;
/** A structure shape of the service model. */
export type ModelStructure = z.infer<typeof ModelStructureSchema>;
/** A member of a structure shape (with its HTTP binding when it travels outside the body). */
export type ModelMember = z.infer<typeof ModelMemberSchema>;
/** One operation of the service model: route, success status, input/output shapes and errors. */
export type ModelOperation = z.infer<typeof ModelOperationSchema>;
/** The parsed service model. */
export type ServiceModel = z.infer<typeof ServiceModelSchema>;

/** One HTTP route of the model, compiled for matching. */
export interface ModelRoute {
  /** Operation name, e.g. `CreateEvent`. */
  readonly operation: string;
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** The model's request URI template, e.g. `/memories/{memoryId}/events`. */
  readonly requestUri: string;
  /** Success status code, e.g. 201. */
  readonly responseCode: number;
  /** Label names in template order. */
  readonly labels: readonly string[];
  /** Number of literal path segments (more literal segments win over labels). */
  readonly literalSegments: number;
  /** Matches a request path (without query string); groups are the raw (still encoded) labels. */
  readonly pattern: RegExp;
}

/** The parsed model and lookups derived from it. */
export interface AgentCoreMemoryModel {
  /** The model as parsed JSON (documentation strings removed upstream). */
  readonly model: ServiceModel;
  /** The model's licence notice (Apache-2.0). */
  readonly notice: string;
  /** Every operation's route, most specific first. */
  readonly routes: readonly ModelRoute[];
  /** The operation with that name; throws for an unknown name. */
  operation(name: string): ModelOperation;
  /** The shape with that name; throws for an unknown name. */
  shape(name: string): ModelShape;
  /** The structure shape with that name; throws when missing or not a structure. */
  structure(name: string): ModelStructure;
  /** The route with that operation name, or undefined. */
  route(operation: string): ModelRoute | undefined;
  /**
   * Finds the route serving `method` and `path`. `path` is the request path without query string,
   * still percent-encoded; labels come back decoded. `methodMismatch` is true when the path exists
   * under another method only.
   */
  match(
    method: string,
    path: string,
  ):
    | { readonly kind: 'matched'; readonly route: ModelRoute; readonly labels: Readonly<Record<string, string>> }
    | { readonly kind: 'unmatched'; readonly methodMismatch: boolean };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileRoute(operation: ModelOperation): ModelRoute {
  const labels: string[] = [];
  let literalSegments = 0;
  const parts = operation.http.requestUri
    .split('/')
    .slice(1)
    .map((segment) => {
      const label = /^\{([A-Za-z0-9_]+)(\+?)\}$/.exec(segment);
      if (label) {
        labels.push(label[1] ?? '');
        // An empty label still routes, so validation can answer "length >= 1" like the service.
        return label[2] === '+' ? '(.*)' : '([^/]*)';
      }
      literalSegments += 1;
      return escapeRegExp(segment);
    });
  return {
    operation: operation.name,
    method: operation.http.method,
    requestUri: operation.http.requestUri,
    responseCode: operation.http.responseCode,
    labels,
    literalSegments,
    pattern: new RegExp(`^/${parts.join('/')}/?$`),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function buildModel(): AgentCoreMemoryModel {
  const model = ServiceModelSchema.parse(rawModel);
  const routes = Object.values(model.operations)
    .map(compileRoute)
    .sort((a, b) => b.literalSegments - a.literalSegments || b.labels.length - a.labels.length);
  const byName = new Map(routes.map((route) => [route.operation, route]));
  const shape = (name: string): ModelShape => {
    const found = model.shapes[name];
    if (!found) throw new Error(`AgentCore model has no shape named ${name}`);
    return found;
  };
  return {
    model,
    notice: AGENTCORE_MODEL_NOTICE,
    routes,
    operation(name) {
      const found = model.operations[name];
      if (!found) throw new Error(`AgentCore model has no operation named ${name}`);
      return found;
    },
    shape,
    structure(name) {
      const found = shape(name);
      if (found.type !== 'structure') throw new Error(`AgentCore model shape ${name} is not a structure`);
      return found;
    },
    route: (operation) => byName.get(operation),
    match(method, path) {
      let methodMismatch = false;
      for (const route of routes) {
        const matched = route.pattern.exec(path);
        if (!matched) continue;
        if (route.method !== method.toUpperCase()) {
          methodMismatch = true;
          continue;
        }
        const labels: Record<string, string> = {};
        route.labels.forEach((name, index) => {
          labels[name] = safeDecode(matched[index + 1] ?? '');
        });
        return { kind: 'matched', route, labels };
      }
      return { kind: 'unmatched', methodMismatch };
    },
  };
}

let cached: AgentCoreMemoryModel | undefined;

/**
 * The AgentCore Memory data-plane service model the emulator validates against (parsed JSON) with
 * route and shape lookups. Parsed once per process.
 */
export function agentCoreMemoryModel(): AgentCoreMemoryModel {
  cached ??= buildModel();
  return cached;
}
