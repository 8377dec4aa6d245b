// Why: names must map to identifiers the service accepts, reversibly and without collisions;
// checked as properties over arbitrary names against the patterns of the service model itself.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapedSessionId,
  escapePath,
  escapePrefix,
  escapeSegment,
  hashedSessionId,
  namespaceOf,
  repositoryActorId,
  repositoryFromActorId,
  unescapePath,
  unescapeSegment,
} from '../src/index.js';

interface ModelShape {
  readonly pattern?: string;
  readonly min?: number;
  readonly max?: number;
}
const model = JSON.parse(
  readFileSync(fileURLToPath(new URL('../src/testing/model/agentcore-memory-model.json', import.meta.url)), 'utf8'),
) as { shapes: Record<string, ModelShape> };

/** A shape's rule from the model file: its pattern anchored, and its length bounds. */
function modelRule(shape: string): (value: string) => boolean {
  const { pattern, min = 0, max = Number.POSITIVE_INFINITY } = model.shapes[shape] ?? {};
  const regex = new RegExp(`^(?:${(pattern ?? '.*').replace('9-_', '9\\-_')})$`);
  return (value) => value.length >= min && value.length <= max && regex.test(value);
}
const validActorId = modelRule('ActorId');
const validSessionId = modelRule('SessionId');
const validNamespace = modelRule('Namespace');

const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const login = fc.stringMatching(/^[A-Za-z0-9._@+-]{1,39}$/);
const slug = fc.tuple(login, login).map(([owner, repo]) => `${owner}/${repo}`);

describe('identifier mapping', () => {
  it('maps the names of the issue to valid identifiers', () => {
    expect(repositoryActorId('vercel/next.js')).toBe('vercel/next_2Ejs');
    expect(validActorId(repositoryActorId('vercel/next.js'))).toBe(true);
    expect(escapeSegment('alice.b@example.com')).toBe('alice_2Eb_40example_2Ecom');
    expect(repositoryActorId('0rg/.github')).toBe('0_30rg/0_2Egithub');
    expect(repositoryFromActorId('0_30rg/0_2Egithub')).toBe('0rg/.github');
  });

  it('repository actorIds are valid, reversible and collision-free', () => {
    fc.assert(
      fc.property(slug, slug, (a, b) => {
        const actorA = repositoryActorId(a);
        expect(validActorId(actorA)).toBe(true);
        expect(repositoryFromActorId(actorA)).toBe(a);
        if (a !== b) expect(repositoryActorId(b)).not.toBe(actorA);
      }),
      { numRuns: 500 },
    );
  });

  it('any segment (Unicode included) escapes reversibly, injectively, into sessionId characters', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const escaped = escapeSegment(a);
        expect(unescapeSegment(escaped)).toBe(a);
        if (escaped.length <= 100) expect(validSessionId(escapedSessionId(a))).toBe(true);
        if (a !== b) expect(escapeSegment(b)).not.toBe(escaped);
      }),
      { numRuns: 1000 },
    );
  });

  it('paths map to namespaces that are valid, reversible and keep prefixes as prefixes', () => {
    const path = fc
      .array(
        name.filter((segment) => !segment.includes('/')),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => parts.join('/'));
    fc.assert(
      fc.property(slug, path, path, (repo, a, b) => {
        const namespace = namespaceOf([repositoryActorId(repo), 'documents', escapePath(a)]);
        expect(validNamespace(namespace)).toBe(true);
        expect(unescapePath(escapePath(a))).toBe(a);
        expect(escapePath(`${a}/${b}`).startsWith(`${escapePath(a)}/`)).toBe(true);
        if (a !== b) expect(escapePath(b)).not.toBe(escapePath(a));
      }),
      { numRuns: 500 },
    );
  });

  it('an escaped prefix selects exactly the escaped names it prefixes', () => {
    const segment = name.filter((part) => !part.includes('/'));
    const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(path, path, fc.nat(), (a, b, cut) => {
        const characters = [...a];
        const prefix = characters.slice(0, cut % (characters.length + 1)).join('');
        if (prefix.includes('//') || prefix.startsWith('/')) return;
        expect(escapePath(a).startsWith(escapePrefix(prefix))).toBe(true);
        if (escapePath(b).startsWith(escapePrefix(prefix))) expect(b.startsWith(prefix)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('hashed sessionIds are valid for any key', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (key) => {
        expect(validSessionId(hashedSessionId('d', key))).toBe(true);
      }),
    );
  });

  it('a name that cannot be mapped is a clear INVALID_ARGUMENT, never an empty identifier', () => {
    expect(() => repositoryActorId('no-slash')).toThrow(/owner\/name/);
    expect(() => repositoryActorId('a/b/c')).toThrow(/owner\/name/);
    expect(() => repositoryActorId(`${'x'.repeat(100)}/${'.'.repeat(60)}`)).toThrow(/at most 255/);
    expect(() => escapeSegment('')).toThrow(/empty/);
    expect(() => escapeSegment('\uD800')).toThrow(/surrogate/);
    expect(() => escapedSessionId('@'.repeat(40))).toThrow(/at most 100/);
    expect(() => unescapeSegment('a_zz')).toThrow(/not an escaped/);
    expect(() => unescapeSegment('0abc')).toThrow(/canonical/);
  });

  it('a crafted name cannot escape its repository scope', () => {
    const scope = namespaceOf([repositoryActorId('acme/app')]);
    for (const crafted of ['../other', '../../other/app/knowledge', '..', 'x/../../y']) {
      const namespace = namespaceOf([repositoryActorId('acme/app'), 'documents', escapePath(crafted)]);
      expect(namespace.startsWith(scope)).toBe(true);
      expect(namespace.split('/')).not.toContain('..');
    }
    expect(() => escapePath('/')).toThrow(/empty/);
    expect(() => repositoryActorId('acme/../other')).toThrow(/owner\/name/);
  });
});
