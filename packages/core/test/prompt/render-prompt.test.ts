// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt templates and request texts contain literal ${VAR} placeholders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEnvelope } from '../../src/envelope/index.js';
import { isRepomemError } from '../../src/errors.js';
import {
  computePromptVersion,
  DEFAULT_PROMPT_ENV_ALLOWLIST,
  listPlaceholders,
  PROMPT_PART_SEPARATOR,
  renderPrompt,
  substitutePlaceholders,
} from '../../src/prompt/index.js';

const envelope = buildEnvelope({
  repo_slug: 'self-evolving/repo',
  route: 'answer',
  source_kind: 'issue_comment',
  target_kind: 'issue',
  target_number: 42,
  target_url: 'https://github.com/self-evolving/repo/issues/42',
  request_text: 'What is ${MEMORY_DIR}? Also $${TARGET_URL}',
  requested_by: 'octocat',
});

const BASE = 'You work on ${REPO_SLUG}.';
const MEMORY = 'Memory lives in ${MEMORY_DIR} (ref ${MEMORY_REF}).';
const TEMPLATE = 'Answer #${TARGET_NUMBER} for @${REQUESTED_BY}:\n${REQUEST_TEXT}\n';
const ENV = { MEMORY_DIR: '/tmp/mem', MEMORY_REF: 'agent/memory', SECRET_TOKEN: 'ghp_x', HOME: '/home/u' };

describe('composition', () => {
  it('base + memory fragment + template, separated by a blank line, when MEMORY_AVAILABLE is "true"', () => {
    const out = renderPrompt({ base: 'B', memoryFragment: 'M', template: 'T', memoryAvailable: 'true' });
    expect(out.text).toBe('B\n\nM\n\nT');
    expect(PROMPT_PART_SEPARATOR).toBe('\n\n');
    expect(renderPrompt({ base: 'B', memoryFragment: 'M', template: 'T', memoryAvailable: true }).text).toBe(
      'B\n\nM\n\nT',
    );
  });

  it.each([false, 'false', 'TRUE', 'True', ' true', '1', 'yes', ''])(
    'omits the memory fragment when MEMORY_AVAILABLE is %j',
    (memoryAvailable) => {
      expect(renderPrompt({ base: 'B', memoryFragment: 'M', template: 'T', memoryAvailable }).text).toBe('B\n\nT');
    },
  );

  it('skips empty parts and trims nothing', () => {
    expect(renderPrompt({ base: '', template: 'T\n', memoryAvailable: 'true' }).text).toBe('T\n');
    expect(renderPrompt({ base: 'B\n', template: '', memoryAvailable: false }).text).toBe('B\n');
  });
});

describe('substitution', () => {
  it('fills envelope, explicit and allowlisted env variables', () => {
    const out = renderPrompt({
      base: BASE,
      memoryFragment: MEMORY,
      template: TEMPLATE,
      memoryAvailable: 'true',
      envelope,
      env: ENV,
    });
    expect(out.text).toBe(
      'You work on self-evolving/repo.\n\n' +
        'Memory lives in /tmp/mem (ref agent/memory).\n\n' +
        'Answer #42 for @octocat:\nWhat is ${MEMORY_DIR}? Also $${TARGET_URL}\n',
    );
    expect(out.unresolved).toStrictEqual([]);
  });

  it('is one pass: a substituted value containing ${X} is never expanded', () => {
    const out = renderPrompt({
      base: '',
      template: '${A}|${B}',
      memoryAvailable: false,
      variables: { A: '${B}', B: '${A}' },
    });
    expect(out.text).toBe('${B}|${A}');
    expect(out.unresolved).toStrictEqual([]);
  });

  it('leaves unknown placeholders as they are and lists each once, in order', () => {
    const out = renderPrompt({ base: '${ZED} ${ALPHA}', template: '${ZED} ${REPO_SLUG}', memoryAvailable: false });
    expect(out.text).toBe('${ZED} ${ALPHA}\n\n${ZED} ${REPO_SLUG}');
    expect(out.unresolved).toStrictEqual(['ZED', 'ALPHA', 'REPO_SLUG']);
  });

  it('only allowlisted env variables are read', () => {
    const out = renderPrompt({
      base: '',
      template: '${MEMORY_DIR} ${SECRET_TOKEN} ${HOME}',
      memoryAvailable: false,
      env: ENV,
    });
    expect(out.text).toBe('/tmp/mem ${SECRET_TOKEN} ${HOME}');
    expect(out.unresolved).toStrictEqual(['SECRET_TOKEN', 'HOME']);
    expect(DEFAULT_PROMPT_ENV_ALLOWLIST).toStrictEqual(['MEMORY_DIR', 'MEMORY_REF', 'REVIEWS_DIR']);
  });

  it('a custom allowlist replaces the default one', () => {
    const out = renderPrompt({
      base: '',
      template: '${HOME} ${MEMORY_DIR}',
      memoryAvailable: false,
      env: ENV,
      envAllowlist: ['HOME'],
    });
    expect(out.text).toBe('/home/u ${MEMORY_DIR}');
  });

  it('undefined env values stay unresolved; empty strings substitute', () => {
    const out = renderPrompt({
      base: '',
      template: '[${MEMORY_DIR}][${MEMORY_REF}]',
      memoryAvailable: false,
      env: { MEMORY_DIR: undefined, MEMORY_REF: '' },
    });
    expect(out.text).toBe('[${MEMORY_DIR}][]');
    expect(out.unresolved).toStrictEqual(['MEMORY_DIR']);
  });

  it('explicit variables override envelope and env values; MEMORY_AVAILABLE reflects memoryAvailable', () => {
    const out = renderPrompt({
      base: '',
      template: '${REPO_SLUG} ${MEMORY_DIR} ${MEMORY_AVAILABLE}',
      memoryAvailable: 'false',
      envelope,
      env: ENV,
      variables: { REPO_SLUG: 'x/y', MEMORY_DIR: '/m' },
    });
    expect(out.text).toBe('x/y /m false');
  });

  it('${1} and ${a-b} are not placeholders', () => {
    const out = renderPrompt({ base: '', template: 'echo ${1} ${a-b} $HOME', memoryAvailable: false, strict: true });
    expect(out.text).toBe('echo ${1} ${a-b} $HOME');
  });

  it('strict mode throws UNRESOLVED_PLACEHOLDER listing the names', () => {
    try {
      renderPrompt({
        base: '${A}',
        template: '${B} ${A} ${REPO_SLUG}',
        memoryAvailable: false,
        envelope,
        strict: true,
      });
      expect.unreachable();
    } catch (error) {
      expect(isRepomemError(error, 'UNRESOLVED_PLACEHOLDER')).toBe(true);
      expect((error as Error).message).toBe('unresolved prompt placeholders: ${A}, ${B}');
      expect((error as { details?: unknown }).details).toStrictEqual({ unresolved: ['A', 'B'] });
    }
    expect(
      renderPrompt({ base: '', template: '${REPO_SLUG}', memoryAvailable: false, envelope, strict: true }).text,
    ).toBe('self-evolving/repo');
  });

  it('rejects misuse with INVALID_ARGUMENT', () => {
    const bad = [
      () => renderPrompt({ base: 5 as unknown as string, template: '', memoryAvailable: false }),
      () => renderPrompt({ base: '', template: null as unknown as string, memoryAvailable: false }),
      () => renderPrompt({ base: '', template: '', memoryAvailable: false, variables: { 'BAD-NAME': 'x' } }),
      () => renderPrompt({ base: '', template: '', memoryAvailable: false, variables: { A: 1 as unknown as string } }),
      () => renderPrompt({ base: '', template: '', memoryAvailable: false, envAllowlist: ['1X'] }),
    ];
    for (const call of bad) expect(call).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('one-pass property: values are inserted verbatim', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,5}$/), fc.string(), { maxKeys: 5 }), (vars) => {
        const names = Object.keys(vars);
        const template = names.map((name) => `<\${${name}}>`).join('');
        const out = renderPrompt({ base: '', template, memoryAvailable: false, variables: vars });
        expect(out.text).toBe(names.map((name) => `<${vars[name]}>`).join(''));
        expect(out.unresolved).toStrictEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('promptVersion', () => {
  const input = { base: BASE, memoryFragment: MEMORY, template: TEMPLATE, envelope, env: ENV };

  it('is sha256: + 64 hex digits', () => {
    expect(renderPrompt({ ...input, memoryAvailable: 'true' }).promptVersion).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is unchanged when memory is toggled or the memory fragment changes', () => {
    const on = renderPrompt({ ...input, memoryAvailable: 'true' }).promptVersion;
    const off = renderPrompt({ ...input, memoryAvailable: false }).promptVersion;
    const otherFragment = renderPrompt({
      ...input,
      memoryFragment: 'different',
      memoryAvailable: 'true',
    }).promptVersion;
    expect(off).toBe(on);
    expect(otherFragment).toBe(on);
  });

  it('is unchanged across runs: envelope, env and MEMORY_* values are excluded', () => {
    const a = renderPrompt({ ...input, memoryAvailable: 'true' }).promptVersion;
    const other = buildEnvelope({
      ...envelope,
      target_number: 7,
      request_text: 'something else',
      requested_by: 'hubot',
      lane: 'x',
    });
    const b = renderPrompt({
      ...input,
      envelope: other,
      env: { MEMORY_DIR: '/elsewhere' },
      memoryAvailable: 'true',
    }).promptVersion;
    expect(b).toBe(a);
    const explicitRunValue = renderPrompt({
      ...input,
      memoryAvailable: 'true',
      variables: { REQUEST_TEXT: 'x', MEMORY_DIR: '/y' },
    });
    expect(explicitRunValue.promptVersion).toBe(a);
  });

  it('changes when the template or base changes', () => {
    const a = renderPrompt({ ...input, memoryAvailable: 'true' }).promptVersion;
    expect(renderPrompt({ ...input, template: `${TEMPLATE}!`, memoryAvailable: 'true' }).promptVersion).not.toBe(a);
    expect(renderPrompt({ ...input, base: `${BASE}!`, memoryAvailable: 'true' }).promptVersion).not.toBe(a);
  });

  it('changes with referenced explicit configuration variables, not with unreferenced ones', () => {
    const base = { base: 'Style: ${STYLE}', template: 'T', memoryAvailable: false as const };
    const terse = renderPrompt({ ...base, variables: { STYLE: 'terse' } }).promptVersion;
    expect(renderPrompt({ ...base, variables: { STYLE: 'verbose' } }).promptVersion).not.toBe(terse);
    expect(renderPrompt({ ...base, variables: { STYLE: 'terse', UNUSED: 'x' } }).promptVersion).toBe(terse);
  });

  it('does not depend on part boundaries being ambiguous (base/template split matters)', () => {
    const a = renderPrompt({ base: 'ab', template: 'c', memoryAvailable: false }).promptVersion;
    const b = renderPrompt({ base: 'a', template: 'bc', memoryAvailable: false }).promptVersion;
    expect(a).not.toBe(b);
  });

  it('computePromptVersion is deterministic and independent of variable order', () => {
    const v1 = computePromptVersion({ base: 'b', template: 't', variables: { A: '1', B: '2' } });
    const v2 = computePromptVersion({ base: 'b', template: 't', variables: { B: '2', A: '1' } });
    expect(v1).toBe(v2);
    expect(v1).toBe(computePromptVersion({ base: 'b', template: 't', variables: { A: '1', B: '2' } }));
  });
});

describe('placeholder helpers', () => {
  it('listPlaceholders returns distinct names in order', () => {
    expect(listPlaceholders('${B} ${A} ${B} ${1} ${_x}')).toStrictEqual(['B', 'A', '_x']);
  });

  it('substitutePlaceholders reports unresolved names', () => {
    expect(substitutePlaceholders('${A}${C}', new Map([['A', '$&']]))).toStrictEqual({
      text: '$&${C}',
      unresolved: ['C'],
    });
  });
});
