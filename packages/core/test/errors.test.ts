// Why: an application can hold two copies of core (a bundled CLI beside an installed store, ESM and
// CommonJS builds); a RepomemError from one copy must still pass the other's instanceof check.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isRepomemError, RepomemError } from '../src/errors.js';

describe('RepomemError across module copies', () => {
  it('an error made by the CommonJS build is an instance of the source class, and the other way round', () => {
    const require = createRequire(import.meta.url);
    const cjs = require('../dist/index.cjs') as typeof import('../src/errors.js');
    const fromCjs = new cjs.RepomemError('NOT_FOUND', 'from the other copy');
    expect(cjs.RepomemError).not.toBe(RepomemError);
    expect(fromCjs instanceof RepomemError).toBe(true);
    expect(isRepomemError(fromCjs, 'NOT_FOUND')).toBe(true);
    expect(new RepomemError('READ_ONLY', 'x') instanceof cjs.RepomemError).toBe(true);
  });

  it('plain errors and look-alikes without the mark are not repomem errors', () => {
    expect(new Error('x') instanceof RepomemError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'RepomemError', code: 'NOT_FOUND' }) instanceof RepomemError).toBe(
      false,
    );
    expect((null as unknown) instanceof RepomemError).toBe(false);
  });

  it('subclasses keep the ordinary prototype check', () => {
    class Special extends RepomemError {}
    expect(new Special('NOT_FOUND', 'x') instanceof Special).toBe(true);
    expect(new Special('NOT_FOUND', 'x') instanceof RepomemError).toBe(true);
    expect(new RepomemError('NOT_FOUND', 'x') instanceof Special).toBe(false);
  });
});
