// Which person a face belongs to, the evidence pooled along the pieces of one person's track, and person boxes as stored.
import { describe, expect, it } from 'vitest';
import { hexToLab } from './kit';
import type { JerseyRead } from './numbers';
import { evidenceAlongPieces, NUMBER_CONFIRMS, NUMBER_READS, numberLookAt, personOfFace, type NumberLooks } from './stretch';
import { decodePersonBoxes, encodePersonBoxes, type StoredBox } from './track-boxes';

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

describe('the Tesseract look a person gets', () => {
  const fresh = (): NumberLooks => ({ reads: 0, confirms: 0, lastT: -Infinity });
  const far = (h: number, netNamed = true) => ({ h, chestFaceH: null, netNamed });

  it('is a full read from 110 px, a confirming read from 95 px only once the number net has a number, and none below', () => {
    expect(numberLookAt(far(94), 10, fresh())).toBeNull();
    expect(numberLookAt(far(95), 10, fresh())).toBe('confirm');
    expect(numberLookAt(far(109), 10, fresh())).toBe('confirm');
    expect(numberLookAt(far(109, false), 10, fresh())).toBeNull();
    expect(numberLookAt(far(110), 10, fresh())).toBe('read');
    expect(numberLookAt(far(110, false), 10, fresh())).toBe('read');
  });

  it('reads the chest under a face only when the face is 48 px or more, whatever the box', () => {
    expect(numberLookAt({ h: 300, chestFaceH: 47, netNamed: true }, 10, fresh())).toBeNull();
    expect(numberLookAt({ h: 60, chestFaceH: 48, netNamed: false }, 10, fresh())).toBe('read');
  });

  it('keeps the full reads for a player who comes nearer after spending the confirming ones', () => {
    const looks: NumberLooks = { reads: 0, confirms: NUMBER_CONFIRMS, lastT: 3 };
    expect(numberLookAt(far(100), 8, looks)).toBeNull();
    expect(numberLookAt(far(130), 8, looks)).toBe('read');
    expect(numberLookAt(far(130), 8, { ...looks, reads: NUMBER_READS })).toBeNull();
    // A track that spent its full reads may still confirm the net's number when it is farther.
    expect(numberLookAt(far(100), 8, { reads: NUMBER_READS, confirms: 0, lastT: 3 })).toBe('confirm');
  });

  it('waits a second between looks', () => {
    expect(numberLookAt(far(130), 3.5, { reads: 1, confirms: 0, lastT: 3 })).toBeNull();
    expect(numberLookAt(far(130), 4, { reads: 1, confirms: 0, lastT: 3 })).toBe('read');
  });
});

describe('the evidence along the pieces of one person’s track', () => {
  /** A person at x running right 20 px a sample, sampled every 0.5 s from `from` to `to`. */
  const walk = (x: number, from: number, to: number): StoredBox[] => {
    const boxes: StoredBox[] = [];
    for (let t = from, i = 0; t <= to + 1e-9; t += 0.5, i++) boxes.push([t, x + i * 20, 300, 40, 100, 90]);
    return boxes;
  };
  const RED = hexToLab('#b01e28');
  const net = (number: number): JerseyRead => ({ number, confidence: 92, byNet: true });
  const piece = (boxes: StoredBox[], reads: JerseyRead[], kits = [RED]) => ({ boxes, kits, reads });

  it('pools the reads of the pieces the tracker lost the player between: one sure net read on each is two alike', () => {
    // Seen 0–2 s (one net read of 24), lost, taken up at 3 s (another), then at 5.5 s (none, shirt never clear).
    const pieces = [piece(walk(100, 0, 2), [net(24)]), piece(walk(260, 3, 4.5), [net(24)]), piece(walk(420, 5.5, 7), [], []), piece(walk(1400, 0, 7), [net(24)])];
    const evidence = evidenceAlongPieces(pieces, []);
    expect(evidence.slice(0, 3).map((e) => e.jerseyNumber)).toEqual([24, 24, 24]);
    // The piece whose shirt was never seen clear takes the kit of the others.
    expect(evidence[2]!.kit).toBe(evidence[0]!.kit);
    expect(evidence[2]!.kit).not.toBeNull();
    // The player far away on the other side, with one read of their own, is no number.
    expect(evidence[3]!.jerseyNumber).toBeNull();
  });

  it('keeps a piece’s own number, and pools nothing across a shot cut or where the reads disagree', () => {
    const twice = [net(7), net(7)];
    const own = evidenceAlongPieces([piece(walk(100, 0, 2), twice), piece(walk(260, 3, 4.5), [net(24), net(24)])], []);
    expect(own.map((e) => e.jerseyNumber)).toEqual([7, 24]);
    expect(evidenceAlongPieces([piece(walk(100, 0, 2), [net(24)]), piece(walk(260, 3, 4.5), [net(24)])], [2.5]).map((e) => e.jerseyNumber)).toEqual([null, null]);
    expect(evidenceAlongPieces([piece(walk(100, 0, 2), [net(24)]), piece(walk(260, 3, 4.5), [net(27)])], []).map((e) => e.jerseyNumber)).toEqual([null, null]);
  });

  it('pools only the pieces within 30 s: a long chain of handovers may have taken up a teammate', () => {
    // Pieces every 2.5 s for a minute, walking right; the 24 is read on the first two only.
    const chain = Array.from({ length: 25 }, (_, i) => {
      const boxes: StoredBox[] = [0, 0.5, 1, 1.5].map((dt, j) => [i * 2.5 + dt, 100 + i * 100 + j * 20, 300, 40, 100, 90]);
      return piece(boxes, i < 2 ? [net(24)] : []);
    });
    const numbers = evidenceAlongPieces(chain, []).map((e) => e.jerseyNumber);
    expect(numbers.slice(0, 13)).toEqual(new Array(13).fill(24));
    expect(numbers.slice(14)).toEqual(new Array(11).fill(null));
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
