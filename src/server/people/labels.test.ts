// The admin's word on a person is given to the track that follows the same person after a re-index.
import { describe, expect, it } from 'vitest';
import { successorTracks } from './labels';
import type { StoredBox } from './track-boxes';

/** A person standing at x, sampled every 0.5 s from `from` to `to`, moving `dx` a sample. */
const walk = (x: number, from: number, to: number, dx = 0): StoredBox[] => {
  const boxes: StoredBox[] = [];
  for (let t = from, i = 0; t <= to + 1e-9; t += 0.5, i++) boxes.push([t, x + i * dx, 100, 80, 200, 90]);
  return boxes;
};

describe('labels across a re-index', () => {
  it('follows each labelled person to the new track with the most overlap', () => {
    const old = [{ id: 'a', boxes: walk(100, 0, 4, 5) }, { id: 'b', boxes: walk(600, 0, 4) }];
    const fresh = [{ id: 'n1', boxes: walk(602, 0, 4) }, { id: 'n2', boxes: walk(104, 0, 4, 5) }, { id: 'n3', boxes: walk(300, 0, 4) }];
    expect(successorTracks(old, fresh)).toEqual(new Map([['a', 'n2'], ['b', 'n1']]));
  });

  it('gives the label to nobody where no new track follows the person for half their samples or overlaps enough', () => {
    // Followed for 1 s of 4: too little to be sure it is the same person.
    expect(successorTracks([{ id: 'a', boxes: walk(100, 0, 4) }], [{ id: 'n', boxes: walk(100, 3, 4) }]).size).toBe(0);
    // Beside, not on, the old boxes.
    expect(successorTracks([{ id: 'a', boxes: walk(100, 0, 4) }], [{ id: 'n', boxes: walk(160, 0, 4) }]).size).toBe(0);
    // A track split in two by the new index: the half that holds more of the old samples.
    expect(successorTracks([{ id: 'a', boxes: walk(100, 0, 4) }], [{ id: 'n1', boxes: walk(100, 0, 1.5) }, { id: 'n2', boxes: walk(100, 2, 4) }])).toEqual(new Map([['a', 'n2']]));
  });
});
