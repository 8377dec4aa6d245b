// Why: `repomem webhook` on real signed deliveries read from files and stdin, storing rules in a
// real SQLite store; refusals exit 2 with the reason. Signatures are computed as GitHub documents
// them (HMAC-SHA256 of the raw body, hex), independently of the library the command uses.
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { type CliResult, jsonOf } from './in-process.js';
import { makeTempDir } from './support.js';

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDir('repomem-webhook-');
});
afterEach(() => temp.remove());

const SECRET = 'webhook secret for tests';

async function* chunks(text: string): AsyncIterable<string> {
  yield text;
}

async function run(args: readonly string[], stdin?: string, secret: string | null = SECRET): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: temp.path,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: temp.path,
      ...(secret === null ? {} : { REPOMEM_WEBHOOK_SECRET: secret }),
    },
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    ...(stdin === undefined ? {} : { stdin: chunks(stdin) }),
  });
  return { code, stdout, stderr };
}

const body = JSON.stringify({
  action: 'submitted',
  review: {
    id: 80,
    user: { login: 'alice' },
    body: 'Please validate request bodies with zod.',
    state: 'commented',
    author_association: 'COLLABORATOR',
  },
  pull_request: { number: 3, html_url: 'https://github.com/acme/app/pull/3' },
  repository: { full_name: 'acme/app' },
});

function headers(secret = SECRET): Record<string, string> {
  return {
    'X-GitHub-Event': 'pull_request_review',
    'X-GitHub-Delivery': 'd-1',
    'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`,
  };
}

describe('repomem webhook', () => {
  it('handles a signed delivery from --headers and --body files and stores the rules', async () => {
    writeFileSync(join(temp.path, 'headers.json'), JSON.stringify(headers()));
    writeFileSync(join(temp.path, 'body.json'), body);
    writeFileSync(join(temp.path, 'answer.txt'), 'RULE: [src/api] Validate request bodies with zod\n');
    const result = await run([
      'webhook',
      '--headers',
      'headers.json',
      '--body',
      'body.json',
      '--model-command',
      'cat answer.txt',
      '--store',
      'sqlite:hooks.db',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(jsonOf(result)).toMatchObject({
      ok: true,
      outcome: 'rules',
      status: 200,
      accepted: 1,
      stored: 1,
      delivery: 'd-1',
    });
    const listed = jsonOf(await run(['rules', 'list', '--store', 'sqlite:hooks.db', '--repo', 'acme/app', '--json']));
    expect(listed).toMatchObject({
      count: 1,
      rules: [{ rule: 'Validate request bodies with zod', scope: 'src/api', weight: 0.8 }],
    });
  });

  it('reads a whole delivery from stdin and refuses a bad signature with exit 2', async () => {
    const good = await run(
      ['webhook', '--delivery', '-', '--store', 'sqlite:hooks.db'],
      JSON.stringify({ headers: headers(), body }),
    );
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^202 rules .*skipped=no_model/);
    const forged = JSON.stringify({ headers: headers('wrong secret'), body });
    const bad = await run(['webhook', '--delivery', '-', '--store', 'sqlite:hooks.db', '--json'], forged);
    expect(bad.code).toBe(2);
    expect(jsonOf(bad)).toMatchObject({ ok: false, outcome: 'unauthorized', reason: 'bad_signature' });
  });

  it('a forged or unsigned delivery opens nothing: no store, no file, in an empty folder', async () => {
    const forged = await run(
      ['webhook', '--delivery', '-'],
      JSON.stringify({ headers: headers('wrong secret'), body }),
    );
    expect(forged.code).toBe(2);
    expect(forged.stderr).toContain('bad_signature');
    const { 'X-Hub-Signature-256': _signature, ...unsigned } = headers();
    const missing = await run(['webhook', '--delivery', '-', '--json'], JSON.stringify({ headers: unsigned, body }));
    expect(missing.code).toBe(2);
    expect(jsonOf(missing)).toMatchObject({ outcome: 'unauthorized', reason: 'missing_signature' });
    expect(readdirSync(temp.path)).toEqual([]);
  });

  it.each([
    ['SQLite', ['--store', 'sqlite:hooks.db']],
    ['a memory directory', ['--dir', 'mem']],
  ])(
    'on %s, a replayed delivery never turns the outcome back, whatever the order, across runs',
    async (_name, where) => {
      if (where[0] === '--dir') mkdirSync(join(temp.path, 'mem'));
      const closed = (pr: number, merged: boolean, at: string, id: string) => {
        const payload = JSON.stringify({
          action: 'closed',
          number: pr,
          pull_request: {
            number: pr,
            merged,
            state: 'closed',
            closed_at: at,
            updated_at: at,
            merged_at: merged ? at : null,
          },
          repository: { full_name: 'acme/app' },
        });
        const signature = `sha256=${createHmac('sha256', SECRET).update(payload, 'utf8').digest('hex')}`;
        return JSON.stringify({
          headers: { 'X-GitHub-Event': 'pull_request', 'X-GitHub-Delivery': id, 'X-Hub-Signature-256': signature },
          body: payload,
        });
      };
      const deliver = async (delivery: string) =>
        jsonOf(await run(['webhook', '--delivery', '-', ...where, '--json'], delivery));
      const outcome = async (task: string) =>
        (
          jsonOf(await run(['episode', 'get', '--task-id', task, '--repo', 'acme/app', ...where, '--json'])) as {
            episode: { data: { outcome: string } };
          }
        ).episode.data.outcome;
      for (const [task, pr] of [
        ['task-12', '12'],
        ['task-14', '14'],
      ] as const) {
        const written = await run([
          'episode',
          'write',
          '--task-id',
          task,
          '--status',
          'completed',
          '--pr-number',
          pr,
          '--repo',
          'acme/app',
          ...where,
        ]);
        expect(written.code).toBe(0);
      }
      const negative = closed(12, false, '2026-03-02T10:00:00Z', 'delivery-negative');
      expect(await deliver(negative)).toMatchObject({ kind: 'outcome', outcome: 'negative', episodes: ['task-12'] });
      expect(await deliver(closed(12, true, '2026-03-02T11:00:00Z', 'delivery-positive'))).toMatchObject({
        kind: 'outcome',
        outcome: 'positive',
        episodes: ['task-12'],
      });
      expect(await deliver(negative)).toMatchObject({ ok: true, kind: 'duplicate', delivery: 'delivery-negative' });
      expect(await outcome('task-12')).toBe('positive');
      // Reversed arrival: the merge first, the earlier close second (another delivery id).
      await deliver(closed(14, true, '2026-03-02T11:00:00Z', 'delivery-14-positive'));
      expect(await deliver(closed(14, false, '2026-03-02T10:00:00Z', 'delivery-14-negative'))).toMatchObject({
        stale: ['task-14'],
      });
      expect(await outcome('task-14')).toBe('positive');
    },
  );

  it('needs the secret and a delivery', async () => {
    const noSecret = await run(['webhook', '--delivery', '-'], '{}', null);
    expect(noSecret.code).toBe(1);
    expect(noSecret.stderr).toContain('REPOMEM_WEBHOOK_SECRET');
    expect((await run(['webhook'])).code).toBe(1);
    const notJson = await run(['webhook', '--delivery', '-', '--store', 'sqlite:hooks.db'], 'not json');
    expect(notJson.code).toBe(2);
  });
});
