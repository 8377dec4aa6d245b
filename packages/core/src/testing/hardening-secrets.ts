// Why: a credential pasted into memory must never be persisted by any store, and a path no file
// system can hold must be refused the same way everywhere. These cases were written once per
// store package; they are one group of the shared hardening suite now. The fake credentials are
// built from parts, so this file itself holds no credential-shaped string.
import type { MemoryStore } from '../store/contract.js';
import type { ConformanceHarness } from './conformance-support.js';
import { utf8 } from './conformance-support.js';

const join = (...parts: string[]): string => parts.join('');

/** Realistic fake credentials, one per rule family the scanner must catch. */
export const FAKE_CREDENTIALS: ReadonlyArray<{
  readonly rule: string;
  readonly secret: string;
  readonly line: string;
}> = [
  { rule: 'aws-access-token', secret: join('AKIA', 'Z3MFQW5XJ7P2K4LT'), line: 'key id ' },
  {
    rule: 'aws-secret-access-key',
    secret: join('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYz8Qd4mLpTn'),
    line: 'aws_secret_access_key = ',
  },
  { rule: 'github-pat', secret: join('gh', 'p_', 'R8vXk2mQ9tL4wZ7pB3nC6yH1sD5fG0jK2aE4'), line: 'token ' },
  {
    rule: 'github-fine-grained-pat',
    secret: join(
      'github_',
      'pat_',
      '11ABCDEFG0',
      'x'.repeat(10),
      'Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6Nm8Qw0Er2Ty4Ui6Op8As0Df2Gh4Jk',
    ),
    line: 'token ',
  },
  {
    rule: 'slack-bot-token',
    secret: join('xo', 'xb-2817361934-4729183650274-', 'Hq8ZkR2mVt5XwP9bLc3NdF7Y'),
    line: 'slack ',
  },
  {
    rule: 'private-key',
    secret: join(
      '-----BEGIN OPENSSH ',
      'PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n',
      'QyNTUxOQAAACDx7Qk3mVt2Lw9Pz4Rb8Nc6Yd1Hf5Jg0Ks3Ma2Xe7Ub9QAAAJgK1mN4\n-----END OPENSSH ',
      'PRIVATE KEY-----',
    ),
    line: 'key: ',
  },
];

async function refusal(
  action: () => Promise<unknown>,
): Promise<{ name?: string; code?: string; message?: string; details?: unknown }> {
  try {
    await action();
  } catch (error) {
    return error as { name?: string; code?: string; message?: string; details?: unknown };
  }
  throw new Error('hardening: expected the write to be refused');
}

/** Register the credential and path-length groups of the hardening suite. */
export function registerSecretGroups<S extends MemoryStore>(
  h: ConformanceHarness<S>,
  wrote: () => Promise<void>,
): void {
  const { expect } = h.options.runner;
  for (const fake of FAKE_CREDENTIALS) {
    h.test(`refuses content holding a ${fake.rule}, naming file, line and rule but never the secret`, async () => {
      const error = await refusal(() =>
        h.store().write([
          { kind: 'put', path: 'notes/ok.md', content: utf8('- fine\n') },
          { kind: 'put', path: 'MEMORY.md', content: utf8(`# Memory\n\n- ${fake.line}${fake.secret}\n`) },
        ]),
      );
      expect(error.name).toBe('RepomemError');
      expect(error.code).toBe('SECRET_DETECTED');
      expect(error.message).toContain('MEMORY.md line 3');
      expect(error.message).toContain(fake.rule);
      const body = fake.secret.split('\n')[1] ?? fake.secret;
      expect(error.message).not.toContain(body.slice(6, 26));
      expect(JSON.stringify(error.details ?? null)).not.toContain(body.slice(6, 26));
      await h.expectPaths([]);
      await wrote();
    });
  }
  h.test('refuses a name over 255 bytes with INVALID_PATH, and reading one is just absent', async () => {
    const path = `notes/${'n'.repeat(300)}.md`;
    await h.expectError(() => h.store().write([{ kind: 'put', path, content: utf8('- a\n') }]), 'INVALID_PATH');
    expect(await h.store().get(path)).toBeUndefined();
    await h.expectPaths([]);
  });
}
