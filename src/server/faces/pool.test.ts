// Which waiting face task a free thread takes (issue 33, finding 3): footage first, and families'
// photo checks never on the last thread footage could use.
import { describe, expect, it } from 'vitest';
import { nextJobIndex } from './pool';

const check = { task: { op: 'analyze-photo' as const } };
const footage = { task: { op: 'index-segment' as const } };

describe('the face threads between footage and photo checks', () => {
  it('footage waiting goes before checks waiting, however many checks came first', () => {
    expect(nextJobIndex([check, check, check, footage, check], 0, 2)).toBe(3);
  });

  it('checks run on at most all threads but one, so one is always left for footage', () => {
    expect(nextJobIndex([check, check], 0, 2)).toBe(0);
    expect(nextJobIndex([check, check], 1, 2)).toBe(-1);
    expect(nextJobIndex([check], 2, 4)).toBe(0);
    expect(nextJobIndex([check], 3, 4)).toBe(-1);
  });

  it('with a single thread a check still runs when no footage waits', () => {
    expect(nextJobIndex([check], 0, 1)).toBe(0);
    expect(nextJobIndex([check, footage], 0, 1)).toBe(1);
    expect(nextJobIndex([], 0, 1)).toBe(-1);
  });
});
