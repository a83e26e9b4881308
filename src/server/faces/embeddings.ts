// Face descriptors as stored: 128 Float32 values each, back to back, in a bytea column.
export const DESCRIPTOR_LENGTH = 128;

export function encodeEmbeddings(descriptors: ArrayLike<number>[]): Buffer {
  const out = new Float32Array(descriptors.length * DESCRIPTOR_LENGTH);
  descriptors.forEach((d, i) => out.set(Array.from(d), i * DESCRIPTOR_LENGTH));
  return Buffer.from(out.buffer);
}

export function decodeEmbeddings(bytes: Buffer | Uint8Array | null): Float32Array[] {
  if (!bytes || bytes.byteLength < DESCRIPTOR_LENGTH * 4) return [];
  const copy = new Float32Array(new Uint8Array(bytes).buffer.slice(0));
  const list: Float32Array[] = [];
  for (let i = 0; i + DESCRIPTOR_LENGTH <= copy.length; i += DESCRIPTOR_LENGTH) list.push(copy.subarray(i, i + DESCRIPTOR_LENGTH));
  return list;
}
