// Why: the emulator as a process of its own (`repomem-agentcore-emulator`), so the repomem CLI,
// benchmarks or a person can point `--store agentcore:...?endpoint=...` at it; argument parsing
// and the run loop live here (testable in-process), the bin file only calls them.
import { parseArgs } from 'node:util';
import { type AgentCoreEmulatorOptions, EMULATOR_CREDENTIALS, optionsSchema } from './options.js';
import { startAgentCoreEmulator } from './server.js';

/** Usage text of `repomem-agentcore-emulator`. */
export const EMULATOR_COMMAND_USAGE = `Usage: repomem-agentcore-emulator [options]

Runs a local Amazon Bedrock AgentCore Memory emulator on 127.0.0.1 until interrupted.

Options:
  --port <n>                 TCP port (default: any free port)
  --memory <id>              a memory id to serve (repeatable; default repomem_emulator-EMULATOR01)
  --region <name>            region the endpoint claims (default us-east-1)
  --latency-ms <n>           added latency per request
  --requests-per-second <n>  answer ThrottledException (429) beyond this rate
  --fault-rate <0..1>        fraction of requests that get an injected fault
  --fault <kind>             throttle, server-error, reset, slow or truncated (repeatable)
  --seed <n>                 seed of the fault random source (default 1)
  --slow-ms <n>              delay of a slow fault (default 2000)
  --any-credentials          accept requests signed with any access key
  -h, --help                 show this text`;

/** Outcome of parsing the command's arguments. */
export type EmulatorCommandArguments =
  | { readonly kind: 'run'; readonly options: AgentCoreEmulatorOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'invalid'; readonly message: string };

function numberOption(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** Parses `repomem-agentcore-emulator` arguments into emulator options. */
export function parseEmulatorArguments(argv: readonly string[]): EmulatorCommandArguments {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  const kinds = values.fault ?? [];
  const candidate = {
    ...(values.memory ? { memories: values.memory } : {}),
    ...(values.region ? { region: values.region } : {}),
    ...(values.port ? { port: numberOption(values.port) } : {}),
    ...(values['latency-ms'] ? { latencyMs: numberOption(values['latency-ms']) } : {}),
    ...(values['requests-per-second'] ? { requestsPerSecond: numberOption(values['requests-per-second']) } : {}),
    ...(values['any-credentials'] ? { accessKeyIds: 'any' } : {}),
    ...(values['fault-rate'] || kinds.length > 0
      ? {
          faults: {
            rate: numberOption(values['fault-rate']) ?? 0,
            kinds,
            ...(values.seed ? { seed: numberOption(values.seed) } : {}),
            ...(values['slow-ms'] ? { slowMs: numberOption(values['slow-ms']) } : {}),
          },
        }
      : {}),
  };
  const checked = optionsSchema.safeParse(candidate);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`);
    return { kind: 'invalid', message: problems.join('; ') };
  }
  return { kind: 'run', options: checked.data };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      memory: { type: 'string', multiple: true },
      region: { type: 'string' },
      'latency-ms': { type: 'string' },
      'requests-per-second': { type: 'string' },
      'fault-rate': { type: 'string' },
      fault: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'slow-ms': { type: 'string' },
      'any-credentials': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Where the command writes and what stops it. */
export interface EmulatorCommandIo {
  /** Writes one line for the user. */
  readonly write: (line: string) => void;
  /** Stops the emulator when aborted (the bin aborts on SIGINT / SIGTERM). */
  readonly signal: AbortSignal;
}

/**
 * Runs `repomem-agentcore-emulator`: starts the emulator, prints its endpoint, memory ids,
 * credentials and a repomem store spec, and serves until `io.signal` aborts. Returns the exit code.
 */
export async function runEmulatorCommand(argv: readonly string[], io: EmulatorCommandIo): Promise<number> {
  const parsed = parseEmulatorArguments(argv);
  if (parsed.kind === 'help') {
    io.write(EMULATOR_COMMAND_USAGE);
    return 0;
  }
  if (parsed.kind === 'invalid') {
    io.write(`repomem-agentcore-emulator: ${parsed.message}\n\n${EMULATOR_COMMAND_USAGE}`);
    return 2;
  }
  const emulator = await startAgentCoreEmulator(parsed.options);
  const memories = parsed.options.memories ?? [emulator.memoryId];
  io.write(`AgentCore Memory emulator listening on ${emulator.endpoint} (region ${emulator.region})`);
  io.write(`memory ids: ${memories.join(', ')}`);
  io.write(
    `credentials: AWS_ACCESS_KEY_ID=${EMULATOR_CREDENTIALS.accessKeyId} AWS_SECRET_ACCESS_KEY=${EMULATOR_CREDENTIALS.secretAccessKey}`,
  );
  io.write(
    `repomem store: agentcore:${emulator.memoryId}?region=${emulator.region}&endpoint=${encodeURIComponent(emulator.endpoint)}`,
  );
  if (!io.signal.aborted) {
    await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  await emulator.close();
  return 0;
}
