// Why (also: paths too long for a file system are refused the same way everywhere): a credential pasted into memory must never reach the memory branch, whether written through
// the store (core's batch validation) or committed from a mounted checkout (the commit gates scan
// content, not only file names); refusals name the file, line and rule, never the secret.
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, git, removeDirectory } from './support.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const join = (...parts: string[]): string => parts.join('');

/** Realistic fake credentials, built from parts so this file itself holds no credential-shaped string. */
const FAKES: ReadonlyArray<{ rule: string; secret: string; line: string }> = [
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

function fakeDocument(fake: (typeof FAKES)[number]): string {
  return `# Memory\n\n- ${fake.line}${fake.secret}\n`;
}

function expectRefusalWithoutSecret(error: unknown, fake: (typeof FAKES)[number], path: string): void {
  expect(isRepomemError(error, 'SECRET_DETECTED'), `expected SECRET_DETECTED, got ${String(error)}`).toBe(true);
  const { message, details } = error as { message: string; details?: unknown };
  expect(message).toContain(`${path} line 3`);
  expect(message).toContain(fake.rule);
  const body = fake.secret.split('\n')[1] ?? fake.secret;
  expect(message).not.toContain(body.slice(6, 26));
  expect(JSON.stringify(details)).not.toContain(body.slice(6, 26));
}

async function refusal(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the write to be refused');
}

let dir: string;
let store: GitStore;
beforeEach(async () => {
  dir = await freshRepository();
  store = await openGitStore({ dir });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

describe('git store: secrets inside files', () => {
  for (const fake of FAKES) {
    it(`refuses a ${fake.rule} and commits nothing`, async () => {
      const before = git(dir, ['for-each-ref']);
      const error = await refusal(() =>
        store.write([
          { kind: 'put', path: 'notes/ok.md', content: utf8('- fine\n') },
          { kind: 'put', path: 'MEMORY.md', content: utf8(fakeDocument(fake)) },
        ]),
      );
      expectRefusalWithoutSecret(error, fake, 'MEMORY.md');
      expect(await store.list()).toEqual([]);
      expect(git(dir, ['for-each-ref'])).toBe(before);
      fsckStrict(dir);
    });
  }
});

describe('git store: paths too long for a file system', () => {
  it('refuses a name over 255 bytes with INVALID_PATH, not a raw ENAMETOOLONG; reading one is just absent', async () => {
    const path = `notes/${'n'.repeat(300)}.md`;
    const error = await refusal(() => store.write([{ kind: 'put', path, content: utf8('- a\n') }]));
    expect(isRepomemError(error, 'INVALID_PATH'), String(error)).toBe(true);
    expect(await store.get(path)).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });
});
