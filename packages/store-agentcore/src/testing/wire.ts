// Why: the restJson1 side of the emulator: read a request into the operation's input members
// (URI labels, query string, headers and JSON body as the model binds them) and write answers
// the way the service does (status, `x-amzn-requestid`, `x-amzn-errortype`, JSON body).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorServiceError, validationError } from './errors.js';
import type { ModelStructure } from './model.js';

/** Largest request body the emulator reads (the service's own limits are far below). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads the whole request body. */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new EmulatorServiceError('ValidationException', 413, 'Request body too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Merges the request's labels, query string, headers and JSON body into the input members. */
export function buildInput(
  shape: ModelStructure,
  labels: Readonly<Record<string, string>>,
  url: URL,
  headers: IncomingMessage['headers'],
  body: Buffer,
): Record<string, unknown> {
  let parsed: Record<string, unknown> = {};
  const text = body.toString('utf8').trim();
  if (text !== '') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw validationError('CannotParse', 'The request body is not valid JSON.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw validationError('CannotParse', 'The request body must be a JSON object.');
    }
    parsed = value as Record<string, unknown>;
  }
  const input: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(shape.members)) {
    const wireName = member.locationName ?? name;
    let value: unknown;
    switch (member.location) {
      case 'uri':
        value = labels[wireName];
        break;
      case 'querystring':
        value = url.searchParams.get(wireName) ?? undefined;
        break;
      case 'header':
        value = headers[wireName.toLowerCase()];
        break;
      case undefined:
        value = parsed[name];
        break;
      default:
        value = undefined;
    }
    if (value !== undefined) input[name] = value;
  }
  return input;
}

function baseHeaders(length: number): Record<string, string | number> {
  return { 'content-type': 'application/json', 'content-length': length, 'x-amzn-requestid': randomUUID() };
}

/** Answers a success with the operation's status code and JSON body. */
export function sendOutput(response: ServerResponse, status: number, body: unknown, truncate: boolean): void {
  const payload = Buffer.from(JSON.stringify(body ?? {}), 'utf8');
  response.writeHead(status, baseHeaders(payload.length));
  if (!truncate) {
    response.end(payload);
    return;
  }
  // Headers promise the whole body; half of it arrives, then the connection dies.
  response.write(payload.subarray(0, Math.floor(payload.length / 2)), () => response.destroy());
}

/** The JSON body of an error answer: `message` plus the error's extra members. */
export function errorBody(error: EmulatorServiceError): Record<string, unknown> {
  return { message: error.message, ...error.extra };
}

/** Answers an error with its status, `x-amzn-errortype` and JSON body. */
export function sendError(response: ServerResponse, error: EmulatorServiceError): void {
  const payload = Buffer.from(JSON.stringify(errorBody(error)), 'utf8');
  response.writeHead(error.status, { ...baseHeaders(payload.length), 'x-amzn-errortype': error.errorType });
  response.end(payload);
}
