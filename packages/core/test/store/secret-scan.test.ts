// Why: every store's batch validation refuses credentials in well-known formats; this proves the
// scanner on realistic fake keys (built from parts, so no scanner of this repository's own
// history mistakes the fixtures for real keys), on the reference store, and that the refusal
// names file, line and rule but never the secret.
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, findSecret, prepareWriteBatch, RepomemError } from '../../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const join = (...parts: string[]) => parts.join('');

/** Realistic fake credentials, one per format the tests name. */
export const FAKE_SECRETS: Readonly<Record<string, { text: string; secret: string; rule: string }>> = {
  awsKeyId: { secret: join('AKIA', 'Z3MFQW5XJ7P2K4LT'), text: '', rule: 'aws-access-token' },
  awsSecret: {
    secret: join('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYz8Qd4mLpTn'),
    text: '',
    rule: 'aws-secret-access-key',
  },
  ghp: { secret: join('gh', 'p_', 'R8vXk2mQ9tL4wZ7pB3nC6yH1sD5fG0jK2aE4'), text: '', rule: 'github-pat' },
  fineGrained: {
    secret: join(
      'github_',
      'pat_',
      '11ABCDEFG0',
      'x'.repeat(10),
      'Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6Nm8Qw0Er2Ty4Ui6Op8As0Df2Gh4Jk',
    ),
    text: '',
    rule: 'github-fine-grained-pat',
  },
  slack: {
    secret: join('xo', 'xb-', '2817361934', '-', '4729183650274', '-', 'Hq8ZkR2mVt5XwP9bLc3NdF7Y'),
    text: '',
    rule: 'slack-bot-token',
  },
  privateKey: {
    secret: join(
      '-----BEGIN RSA ',
      'PRIVATE KEY-----\n',
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n',
      'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n',
      '-----END RSA ',
      'PRIVATE KEY-----',
    ),
    text: '',
    rule: 'private-key',
  },
};
for (const entry of Object.values(FAKE_SECRETS)) {
  (entry as { text: string }).text =
    entry.rule === 'aws-secret-access-key'
      ? `- deploy with aws_secret_access_key = ${entry.secret}\n`
      : `- the token is ${entry.secret} (do not share)\n`;
}

function refusal(run: () => unknown): RepomemError {
  try {
    run();
  } catch (error) {
    if (error instanceof RepomemError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('secret scanning', () => {
  for (const [name, { text, secret, rule }] of Object.entries(FAKE_SECRETS)) {
    it(`finds ${name} and names its rule and line without echoing it`, () => {
      const content = bytes(`# Memory\n\n${text}`);
      expect(findSecret(content)).toMatchObject({ ruleId: rule, line: 3 });
      const error = refusal(() => prepareWriteBatch([{ kind: 'put', path: 'MEMORY.md', content }], 1 << 20));
      expect(error.code).toBe('SECRET_DETECTED');
      expect(error.message).toContain('MEMORY.md line 3');
      expect(error.message).toContain(rule);
      for (const piece of secret.split('\n')) {
        if (piece.length > 12 && !piece.startsWith('-----')) expect(error.message).not.toContain(piece.slice(4));
      }
      expect(JSON.stringify(error.details)).not.toContain(secret.slice(6, 20));
    });
  }

  it('leaves prose, placeholders and documented example keys alone', () => {
    for (const text of [
      '- set GITHUB_TOKEN in the workflow, never in memory\n',
      '- the AWS docs key AKIAIOSFODNN7EXAMPLE is a placeholder\n',
      '- private keys start with -----BEGIN PRIVATE KEY----- and are never pasted here\n',
      '- ghp_ tokens are classic personal access tokens\n',
    ]) {
      expect(findSecret(text)).toBeNull();
    }
  });

  it('refuses the whole batch on the reference store, writing nothing', async () => {
    const store = createInMemoryStore();
    await expect(
      store.write([
        { kind: 'put', path: 'notes/a.md', content: bytes('- fine\n') },
        { kind: 'put', path: 'MEMORY.md', content: bytes(FAKE_SECRETS.ghp?.text ?? '') },
      ]),
    ).rejects.toMatchObject({ code: 'SECRET_DETECTED' });
    expect(await store.get('notes/a.md')).toBeUndefined();
  });
});

describe('secret scanning finds every keyword in one pass', () => {
  it('matches the rule-by-rule scan on text where keywords overlap or share a start', () => {
    // Each prefix finds the credential after it, whatever keyword occurrences come first.
    const token = `ghp_${'a'.repeat(36)}`;
    for (const prefix of ['age-secret-key-1 ', 'sk-ant-api03sk-ant-admin01 ', 'xoxpxoxo-xoxb secret ', '']) {
      expect(findSecret(`${prefix}${token}`)?.ruleId, prefix).toBe('github-pat');
    }
  });

  it('finds a credential after thousands of lines that mention keywords', () => {
    const noise = Array.from({ length: 3000 }, (_, index) => `- keep the secret ${index} out of sg. logs`).join('\n');
    expect(findSecret(`${noise}\n- token ghp_${'b'.repeat(36)}\n`)).toMatchObject({ ruleId: 'github-pat', line: 3001 });
    expect(findSecret(noise)).toBeNull();
  });
});
