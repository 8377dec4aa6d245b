// Why: what `repomem rules` and `repomem webhook` share: reading a file or standard input as
// bytes, opening the chosen store's task records through the CLI registry, and turning a shell
// command into the injected model function of rule extraction.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RuleExtractionModel, TaskRecordBackend } from '@repomem/core';
import { CliDataError } from '../errors.js';
import type { CliIo } from '../io.js';
import { CLI_MAX_CONNECTIONS } from '../open-chosen-store.js';
import { cliRegistry } from '../store-registry.js';
import { chooseStore, type StoreSelectionInput } from '../store-selection.js';

/** Most bytes read from a file or stdin (a review delivery or a model answer is far smaller). */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** Read `path` (relative to the working directory), or standard input for `-` or `undefined`. */
export async function readInput(path: string | undefined, io: CliIo, what: string): Promise<Uint8Array> {
  if (path !== undefined && path !== '-') {
    try {
      return await readFile(resolve(io.cwd, path));
    } catch (error) {
      throw new CliDataError('NOT_FOUND', `cannot read ${what} ${path}: ${(error as Error).message}`);
    }
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const source: AsyncIterable<string | Uint8Array> = io.stdin ?? process.stdin;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES)
      throw new CliDataError('FILE_TOO_LARGE', `${what} on stdin is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** Read a JSON file or stdin; {@link CliDataError} `INVALID_DOCUMENT` when it does not parse. */
export async function readJsonInput(path: string | undefined, io: CliIo, what: string): Promise<unknown> {
  const text = new TextDecoder().decode(await readInput(path, io, what));
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliDataError('INVALID_DOCUMENT', `${what} ${path ?? '(stdin)'} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Open the task records of the chosen store (`--store`, `--dir`, `$REPOMEM_STORE`...) through
 * the CLI registry: the store's native records when its scheme has them, otherwise documents
 * under `.repomem/tasks/` of the store.
 */
export async function openTaskRecords(
  selection: StoreSelectionInput,
  io: CliIo,
  repo: string,
  readOnly: boolean,
): Promise<TaskRecordBackend> {
  const chosen = await chooseStore(selection, io);
  return cliRegistry.openTaskRecordBackend(chosen.resolved, {
    cwd: io.cwd,
    env: io.env,
    repo,
    readOnly,
    create: !readOnly,
    maxConnections: CLI_MAX_CONNECTIONS,
  });
}

/**
 * A model function that runs `command` with `sh -c` in the working directory, writes the prompt
 * on its stdin and returns its stdout. A non-zero exit is a {@link CliDataError} `MODEL_FAILED`
 * with the end of its stderr.
 */
export function commandModel(command: string, io: CliIo): RuleExtractionModel {
  return (prompt, options) =>
    new Promise<string>((resolvePromise, reject) => {
      const child = spawn('sh', ['-c', command], {
        cwd: io.cwd,
        env: { ...io.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) =>
        reject(new CliDataError('MODEL_FAILED', `model command failed to start: ${error.message}`)),
      );
      child.on('close', (code) => {
        if (code === 0) {
          resolvePromise(Buffer.concat(out).toString('utf8'));
          return;
        }
        const tail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' | ');
        reject(
          new CliDataError('MODEL_FAILED', `model command exited with code ${code}${tail === '' ? '' : `: ${tail}`}`),
        );
      });
      child.stdin.on('error', () => {
        // The command may exit without reading its input; its exit code decides.
      });
      child.stdin.end(prompt);
    });
}
