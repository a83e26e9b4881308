// A person track's sampled boxes as stored: 13 bytes a box (time in ms, x, y, w, h in whole source
// pixels, score in hundredths), back to back in a bytea. As JSON they took about 83 bytes a box: a
// wide game camera sees 20–50 people, so a camera-hour would be 12–30 MB of boxes alone, where the
// whole index of a camera-hour must stay under 20 MB (issue 35 item 7).

/** [t seconds, x, y, w, h, score × 100]. */
export type StoredBox = [number, number, number, number, number, number];

const BYTES_PER_BOX = 13;

export function encodePersonBoxes(boxes: ReadonlyArray<ReadonlyArray<number>>): Buffer {
  const out = Buffer.alloc(boxes.length * BYTES_PER_BOX);
  boxes.forEach(([t, x, y, w, h, score], i) => {
    const at = i * BYTES_PER_BOX;
    out.writeUInt32LE(Math.round(t! * 1000), at);
    out.writeInt16LE(clampInt16(x!), at + 4);
    out.writeInt16LE(clampInt16(y!), at + 6);
    out.writeUInt16LE(Math.max(0, Math.min(65535, Math.round(w!))), at + 8);
    out.writeUInt16LE(Math.max(0, Math.min(65535, Math.round(h!))), at + 10);
    out.writeUInt8(Math.max(0, Math.min(100, Math.round(score!))), at + 12);
  });
  return out;
}

export function decodePersonBoxes(stored: Buffer | Uint8Array): StoredBox[] {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const boxes: StoredBox[] = [];
  for (let at = 0; at + BYTES_PER_BOX <= bytes.length; at += BYTES_PER_BOX) {
    boxes.push([bytes.readUInt32LE(at) / 1000, bytes.readInt16LE(at + 4), bytes.readInt16LE(at + 6), bytes.readUInt16LE(at + 8), bytes.readUInt16LE(at + 10), bytes.readUInt8(at + 12)]);
  }
  return boxes;
}

function clampInt16(v: number): number {
  return Math.max(-32768, Math.min(32767, Math.round(v)));
}
