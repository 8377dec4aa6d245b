// Why: bullet normalisation must match Sepo byte for byte (dedup compatibility), and matching must
// be marker-, case- and whitespace-insensitive (weakness 3).
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import {
  bulletMatchKey,
  isBulletLine,
  normalizeBullet,
  normalizeMatch,
  previewBullet,
  requireBullet,
} from '../../src/markdown/bullet.js';

describe('normalizeBullet', () => {
  it.each([
    ['use pnpm', '- use pnpm'],
    ['  *  use   pnpm\r\n ', '- use pnpm'],
    ['- already a bullet', '- already a bullet'],
    ['+ plus marker', '- plus marker'],
    ['- - two markers', '- - two markers'],
    ['line one\nline two', '- line one line two'],
    ['-dash without space', '- -dash without space'],
  ])('%j -> %j', (raw, expected) => {
    expect(normalizeBullet(raw)).toBe(expected);
  });

  it('returns empty for blank text and for a lone marker', () => {
    expect(normalizeBullet('  \r\n\t')).toBe('');
    expect(normalizeBullet(' - ')).toBe('');
    expect(normalizeBullet('*')).toBe('');
  });

  it('requireBullet throws INVALID_ARGUMENT naming the argument for empty text', () => {
    expect(() => requireBullet('   ', 'with')).toThrowError(/with must be non-empty/);
    try {
      requireBullet('');
    } catch (error) {
      expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});

describe('isBulletLine', () => {
  it.each([
    ['- a', true],
    ['  * nested', true],
    ['+\tb', true],
    ['-a', false],
    ['- ', false],
    ['text', false],
    ['## header', false],
  ])('%j -> %s', (line, expected) => {
    expect(isBulletLine(line)).toBe(expected);
  });
});

describe('matching keys', () => {
  it('strips the marker and lowercases', () => {
    expect(bulletMatchKey('- Use PNPM')).toBe('use pnpm');
  });

  it('normalises the needle the same way and refuses an empty one', () => {
    expect(normalizeMatch('  - Use   PNPM ')).toBe('use pnpm');
    expect(normalizeMatch(' - ')).toBe('-');
    expect(() => normalizeMatch('  ')).toThrowError(/match must be non-empty/);
  });

  it('previews long bullets like Sepo (120 chars, ellipsis)', () => {
    const long = `- ${'x'.repeat(200)}`;
    const preview = previewBullet(long);
    expect(preview.length).toBe(120);
    expect(preview.endsWith('…')).toBe(true);
    expect(previewBullet('- short')).toBe('- short');
  });
});
