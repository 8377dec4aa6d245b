// Why: `repomem --store agentcore:<memoryId>?region=...&endpoint=...` (and `$REPOMEM_STORE`) must
// work from the built CLI binary, which loads this package through core's registry: update,
// search, memories and doctor, against the emulator through the real SDK client.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCoreEmulator, EMULATOR_CREDENTIALS } from '../src/testing/index.js';
import { startEmulator } from './support.js';

const BIN = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));
let emulator: AgentCoreEmulator;
let cwd: string;
let spec: string;

function repomem(
  args: string[],
  env: Record<string, string> = {},
  directory?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: directory ?? cwd,
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: EMULATOR_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: EMULATOR_CREDENTIALS.secretAccessKey,
        AWS_EC2_METADATA_DISABLED: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  emulator = await startEmulator();
  cwd = mkdtempSync(join(tmpdir(), 'repomem-agentcore-cli-'));
  spec = `agentcore:${emulator.memoryId}?region=${emulator.region}&endpoint=${encodeURIComponent(emulator.endpoint)}`;
});
afterAll(async () => {
  await emulator.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe.skipIf(!existsSync(BIN))('the repomem binary on an agentcore: store', () => {
  it('update add, then search, through --store and through $REPOMEM_STORE', async () => {
    const add = await repomem([
      'update',
      'add',
      '--store',
      spec,
      '--repo',
      'vercel/next.js',
      '--file',
      'MEMORY.md',
      '--section',
      'Durable',
      'Deploys go through AgentCore',
    ]);
    expect(add).toEqual({ code: 0, stdout: 'added bullet to MEMORY.md\n', stderr: '' });
    const search = await repomem(['search', '--repo', 'vercel/next.js', 'agentcore'], { REPOMEM_STORE: spec });
    expect(search.stderr).toBe('');
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('Deploys go through AgentCore');
  }, 60_000);

  it('doctor checks the memory and explains a wrong endpoint', async () => {
    const ok = await repomem(['doctor', '--store', spec, '--repo', 'vercel/next.js']);
    expect(ok.stdout).toMatch(/vercel\/next_2Ejs/);
    const typo = await repomem([
      'doctor',
      '--store',
      spec.replace(/endpoint=[^&]+/, 'endpoint=http%3A%2F%2F127.0.0.1%3A9'),
      '--repo',
      'vercel/next.js',
    ]);
    expect(`${typo.stdout}${typo.stderr}`).toMatch(/typo/);
    expect(typo.code).not.toBe(0);
  }, 60_000);

  it('memories store, recall and stats keep verified memories as AgentCore records', async () => {
    const repo = join(cwd, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src', 'a.ts'), 'export const A = 1;\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'initial');
    const stored = await repomem(
      [
        'memories',
        'store',
        '--store',
        spec,
        '--repo',
        'acme/app',
        '--subject',
        'A',
        '--fact',
        'A is one',
        '--cite',
        'src/a.ts:1',
      ],
      {},
      repo,
    );
    expect(stored.stderr).toBe('');
    expect(stored.code).toBe(0);
    const stats = await repomem(['memories', 'stats', '--store', spec, '--repo', 'acme/app', '--json'], {}, repo);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).byStatus).toEqual({ active: 1, invalid: 0, superseded: 0 });
  }, 60_000);

  it('missing credentials: a clear message naming the sources, no stack trace', async () => {
    const result = await repomem(['search', '--store', spec, '--repo', 'acme/app', 'anything'], {
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'repomem-no-such-profile',
      AWS_SHARED_CREDENTIALS_FILE: join(cwd, 'none'),
      AWS_CONFIG_FILE: join(cwd, 'none'),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/credentials/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
