// Why: the hosted services cannot be reached from tests, so each test talks to a real HTTP server
// on 127.0.0.1 that speaks the service's wire format, validates every request with zod, and can
// be told to throttle the next requests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';

/** A request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

/** What a handler answers. */
export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: unknown;
}

export interface Loopback {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** The next `count` requests are answered with `answer` instead of the handler's. */
  failNext(count: number, answer: Answer): void;
  close(): Promise<void>;
}

/**
 * Start a loopback server: each request body must satisfy `schema`, else it gets a 400. With
 * `http2` it speaks cleartext HTTP/2 (the Bedrock runtime client's transport).
 */
export async function startLoopback<S extends z.ZodType>(
  schema: S,
  handle: (request: SeenRequest & { body: z.infer<S> }) => Answer,
  options: { readonly http2?: boolean } = {},
): Promise<Loopback> {
  const requests: SeenRequest[] = [];
  const failures: Answer[] = [];
  const listener = (
    incoming: IncomingMessage | Http2ServerRequest,
    outgoing: ServerResponse | Http2ServerResponse,
  ): void => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const seen = { method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, body };
      requests.push(seen);
      const parsed = schema.safeParse(body);
      const answer: Answer =
        failures.shift() ??
        (parsed.success
          ? handle({ ...seen, body: parsed.data })
          : { status: 400, body: { error: { message: `invalid request: ${parsed.error.message}` } } });
      const response = outgoing as ServerResponse; // the HTTP/2 compatibility response has the same two calls
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  };
  const server = options.http2 === true ? createHttp2Server(listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, answer) {
      for (let index = 0; index < count; index += 1) failures.push(answer);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A deterministic vector for a text (its character codes, cycled). */
export function fakeVector(text: string, dimensions: number): number[] {
  return Array.from(
    { length: dimensions },
    (_, index) => ((text.charCodeAt(index % Math.max(1, text.length)) || 1) % 17) - 8,
  );
}
