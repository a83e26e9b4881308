// Face descriptors as stored: 128 Float32 values each, back to back, sealed with the face data key
// (face-data-seal.ts) in a bytea column. No descriptor is stored as an empty value, never sealed,
// so "has a descriptor" stays a length test in SQL.
import { openFaceData, sealFaceData } from './face-data-seal';

export const DESCRIPTOR_LENGTH = 128;

export function encodeEmbeddings(descriptors: ArrayLike<number>[]): Buffer {
  if (!descriptors.length) return Buffer.alloc(0);
  const out = new Float32Array(descriptors.length * DESCRIPTOR_LENGTH);
  descriptors.forEach((d, i) => out.set(Array.from(d), i * DESCRIPTOR_LENGTH));
  return sealFaceData(new Uint8Array(out.buffer));
}

export function decodeEmbeddings(stored: Buffer | Uint8Array | null): Float32Array[] {
  if (!stored || stored.byteLength < DESCRIPTOR_LENGTH * 4) return [];
  const bytes = openFaceData(stored);
  const copy = new Float32Array(new Uint8Array(bytes).buffer.slice(0));
  const list: Float32Array[] = [];
  for (let i = 0; i + DESCRIPTOR_LENGTH <= copy.length; i += DESCRIPTOR_LENGTH) list.push(copy.subarray(i, i + DESCRIPTOR_LENGTH));
  return list;
}
