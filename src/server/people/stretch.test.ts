// Which person a face belongs to, and person boxes as stored.
import { describe, expect, it } from 'vitest';
import { personOfFace } from './stretch';
import { decodePersonBoxes, encodePersonBoxes } from './track-boxes';

describe('the person a face lies in', () => {
  const face = { x: 100, y: 60, w: 30, h: 36 };
  it('is the person whose head holds the face, the nearest when two overlap', () => {
    const standing = { x: 80, y: 40, w: 70, h: 200, id: 'standing' };
    const behind = { x: 60, y: 20, w: 120, h: 260, id: 'behind' };
    expect(personOfFace(face, [behind, standing])?.id).toBe('standing');
    expect(personOfFace(face, [behind])?.id).toBe('behind');
  });

  it('is nobody when the face is at the person’s waist, beside them, or the box is hardly taller than the face', () => {
    expect(personOfFace(face, [{ x: 80, y: -40, w: 70, h: 140 }])).toBeUndefined();
    expect(personOfFace(face, [{ x: 140, y: 40, w: 70, h: 200 }])).toBeUndefined();
    expect(personOfFace(face, [{ x: 95, y: 55, w: 40, h: 60 }])).toBeUndefined();
  });
});

describe('person boxes as stored', () => {
  it('come back as they went in, 13 bytes a box, within the column’s ranges', () => {
    const boxes = [
      [0, 12, 40, 60, 180, 71],
      [0.5, -3, 38, 61, 178, 40],
      [3599.5, 1900, 1070, 20, 24, 25],
    ];
    const stored = encodePersonBoxes(boxes);
    expect(stored.byteLength).toBe(39);
    expect(decodePersonBoxes(stored)).toEqual(boxes);
    expect(decodePersonBoxes(encodePersonBoxes([[1.25, 12.6, 40000, 70000, 99.4, 130]]))).toEqual([[1.25, 13, 32767, 65535, 99, 100]]);
    expect(decodePersonBoxes(Buffer.alloc(0))).toEqual([]);
  });
});
