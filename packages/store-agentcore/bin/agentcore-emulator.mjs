#!/usr/bin/env node
// Why: `repomem-agentcore-emulator`: the AgentCore Memory emulator as its own process, stopped by
// Ctrl-C; all logic is in the testing module (src/testing/command.ts).
import { runEmulatorCommand } from '../dist/testing/index.js';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
process.exitCode = await runEmulatorCommand(process.argv.slice(2), {
  write: (line) => process.stdout.write(`${line}\n`),
  signal: stop.signal,
});
