// Face data sealed at rest (issue 21): what is stored is not the descriptor, opens only with the
// key it was sealed under, and any change to it is refused.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeEmbeddings, encodeEmbeddings } from './embeddings';
import { installFaceDataKey, isSealed, openFaceData, sealFaceData } from './face-data-seal';

describe('sealed face data', () => {
  it('stores no descriptor value in the clear, and reads back the same descriptors', () => {
    installFaceDataKey(randomBytes(32));
    const descriptors = [Array.from({ length: 128 }, (_, i) => i / 128 - 0.5), Array.from({ length: 128 }, (_, i) => Math.sin(i))];
    const stored = encodeEmbeddings(descriptors);
    expect(isSealed(stored)).toBe(true);
    const plain = Buffer.from(new Float32Array(descriptors.flat()).buffer);
    // No 16-byte run of the plain values appears in what is stored.
    for (let i = 0; i + 16 <= plain.length; i += 16) expect(stored.includes(plain.subarray(i, i + 16))).toBe(false);
    const back = decodeEmbeddings(stored);
    expect(back).toHaveLength(2);
    expect(Array.from(back[1]!)).toEqual(Array.from(new Float32Array(descriptors[1]!)));
    expect(encodeEmbeddings([])).toHaveLength(0);
  });

  it('opens data sealed under an earlier key of this process; refuses altered data and unknown keys', () => {
    installFaceDataKey(randomBytes(32));
    const earlier = sealFaceData(Buffer.from('face crop'));
    installFaceDataKey(randomBytes(32));
    expect(openFaceData(earlier).toString()).toBe('face crop');
    const altered = Buffer.from(earlier);
    altered[altered.length - 20]! ^= 1;
    expect(() => openFaceData(altered)).toThrow();
    const foreign = Buffer.from(earlier);
    foreign.writeUInt32BE(0xdeadbeef, 4); // another key id
    expect(() => openFaceData(foreign)).toThrow(/FACE_DATA_KEY/);
    // Values stored before sealing began read as they are.
    expect(openFaceData(Buffer.from('plain')).toString()).toBe('plain');
  });
});
