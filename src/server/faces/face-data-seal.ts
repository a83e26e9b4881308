// Biometric data at rest is sealed with a key that is not in the database (issue 21, decision
// 0017): face descriptors and face crops are stored as AES-256-GCM ciphertext, so a dump of the
// database alone holds no face data. The key comes from FACE_DATA_KEY, or is made once and kept
// in the data folder (like the auth secret); every instance of a scaled-out product sets the same
// FACE_DATA_KEY. A small ring of keys is kept by id, so data sealed under an earlier key (several
// apps in one test process, or a key being rotated) still opens.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** "GFD1": sealed face data, format 1: magic, key id (4), IV (12), ciphertext, tag (16). */
const MAGIC = Buffer.from('GFD1');
const HEADER = MAGIC.length + 4 + 12;
const TAG = 16;

interface Key {
  id: Buffer;
  bytes: Buffer;
}
const ring = new Map<string, Key>();
let current: Key | null = null;

/** Makes this key the one new data is sealed with (and keeps it for opening). */
export function installFaceDataKey(bytes: Buffer) {
  if (bytes.length !== 32) throw new Error('The face data key must be 32 bytes.');
  const key = { id: createHash('sha256').update(bytes).digest().subarray(0, 4), bytes };
  ring.set(key.id.toString('hex'), key);
  current = key;
}

function sealingKey(): Key {
  // A process that never installed a key (a benchmark) seals under a key of its own, for its life.
  if (!current) installFaceDataKey(randomBytes(32));
  return current!;
}

export function isSealed(bytes: Uint8Array): boolean {
  return bytes.byteLength >= HEADER + TAG && Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC.length).equals(MAGIC);
}

export function sealFaceData(plain: Uint8Array): Buffer {
  const key = sealingKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, key.id, iv, body, cipher.getAuthTag()]);
}

/**
 * The plain bytes of sealed face data. Data stored before sealing began (no magic) is returned as
 * it is; data sealed under a key this process does not hold, or altered, throws.
 */
export function openFaceData(stored: Uint8Array): Buffer {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (!isSealed(bytes)) return bytes;
  const key = ring.get(bytes.subarray(MAGIC.length, MAGIC.length + 4).toString('hex'));
  if (!key) throw new Error('Face data sealed with a key this server does not have (FACE_DATA_KEY).');
  const iv = bytes.subarray(MAGIC.length + 4, HEADER);
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
  return Buffer.concat([decipher.update(bytes.subarray(HEADER, bytes.length - TAG)), decipher.final()]);
}
