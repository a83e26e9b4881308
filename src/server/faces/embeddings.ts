// Face descriptors as stored: 128 Float32 values each, back to back, sealed with the face data key
// (face-data-seal.ts) in a bytea column. No descriptor is stored as an empty value, never sealed,
// so "has a descriptor" stays a length test in SQL.
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
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

/**
 * A bytea column read as base64 text, for bulk reads of embeddings. The embedded PGlite turns a
 * bytea into bytes with one parseInt per byte in JavaScript (three quarters of matching's time on
 * 20 camera-hours); text it decodes natively, and so does Buffer base64 (PostgreSQL's line breaks
 * in it are skipped). The column is written unqualified: for a query on its own table.
 */
export const base64Of = (column: AnyPgColumn) => sql<string>`encode(${column}, 'base64')`;

export function decodeBase64Embeddings(text: string | null): Float32Array[] {
  return text ? decodeEmbeddings(Buffer.from(text, 'base64')) : [];
}
