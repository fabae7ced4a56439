import { describe, expect, it } from 'vitest';
import { resolveVersion } from './semver.ts';

describe('resolveVersion (settled decision 7)', () => {
  const installed = ['1.0.0', '1.2.0', '1.2.3', '1.4.1', '2.0.0'];

  it('prefers an exact match', () => {
    expect(resolveVersion('1.2.0', installed)).toBe('1.2.0');
  });

  it('otherwise takes the highest version of the same major with minor >= the requested one', () => {
    expect(resolveVersion('1.1.0', installed)).toBe('1.4.1');
    expect(resolveVersion('1.3.7', installed)).toBe('1.4.1');
  });

  it('never crosses a major version', () => {
    expect(resolveVersion('3.0.0', installed)).toBeNull();
    expect(resolveVersion('0.9.0', installed)).toBeNull();
    expect(resolveVersion('1.5.0', installed)).toBeNull();
  });

  it('rejects text that is not major.minor.patch', () => {
    expect(resolveVersion('1.2', installed)).toBeNull();
  });
});
