// The storage driver for any S3-compatible store (AWS S3, MinIO, R2, …), chosen when S3_BUCKET is set.
// Objects are private: no ACL is ever sent, so they get the bucket's default (private); the API
// streams them to whoever may see them.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { assertValidKey, assertValidPrefix, type Storage } from './storage';

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** A missing object (not a missing bucket, which is a configuration error and must surface). */
function isMissingObject(err: unknown): boolean {
  if (!(err instanceof S3ServiceException) && httpStatus(err) === undefined) return false;
  const name = (err as { name?: string }).name;
  if (name === 'NoSuchBucket') return false;
  // HEAD responses have no body, so the SDK can only say "NotFound" (404).
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(err) === 404;
}

/** Bytes start..end (inclusive) of a stream of the whole object; stops reading once past end. */
function sliceStream(source: Readable, start: number, end: number): Readable {
  async function* slice() {
    let pos = 0;
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      const from = Math.max(start - pos, 0);
      const to = Math.min(end + 1 - pos, buf.length);
      pos += buf.length;
      if (to > from) yield buf.subarray(from, to);
      if (pos > end) break; // leaving the loop destroys the source and frees the connection
    }
  }
  return Readable.from(slice(), { objectMode: false });
}

export function createS3Storage(config: S3Config): Storage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    forcePathStyle: config.forcePathStyle,
    // Without explicit keys the SDK's default chain applies (environment, instance role, …).
    credentials: config.accessKeyId
      ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
      : undefined,
    // Send and check the newer CRC checksums only where the operation requires them: many
    // S3-compatible stores reject or mishandle the headers the SDK adds by default since 3.729.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;

  return {
    kind: 's3',
    localPath: () => null,
    async put(key, data, contentType) {
      assertValidKey(key);
      // A single PUT is atomic in S3: a reader sees the old object or the new one, never half.
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }),
      );
    },
    async putFile(key, filePath, contentType, opts = {}) {
      assertValidKey(key);
      const { size } = await fsp.stat(filePath);
      // One streamed PUT (up to 5 GB): the file is never held in memory.
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: fs.createReadStream(filePath), ContentType: contentType, ContentLength: size }),
      );
      if (opts.move) await fsp.rm(filePath, { force: true });
    },
    async download(key, filePath) {
      const body = await this.read(key);
      if (!body) return false;
      await pipeline(body, fs.createWriteStream(filePath));
      return true;
    },
    async stat(key) {
      // As on disk: an invalid key names no object (the media route turns null into a 404).
      if (!isValidKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
      } catch (err) {
        if (isMissingObject(err)) return null;
        throw err;
      }
    },
    async read(key, range) {
      assertValidKey(key);
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        const body = !out.Body ? Readable.from([]) : out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body as never);
        if (!range) return body;
        // A server may answer with more than was asked: the whole object (a 200 that ignores
        // Range), or a wider range (s3rver turns `bytes=0-0` into the whole object as a 206).
        // Cut the asked bytes out of what came, so callers always get exactly start..end.
        const got = /^bytes (\d+)-(\d+)\//.exec(out.ContentRange ?? '');
        const gotStart = got ? Number(got[1]) : 0;
        const gotEnd = got ? Number(got[2]) : Infinity;
        if (gotStart === range.start && gotEnd <= range.end) return body;
        if (gotStart > range.start) {
          body.destroy();
          throw new Error(`storage: asked ${key} for bytes ${range.start}-${range.end}, got ${out.ContentRange}`);
        }
        return sliceStream(body, range.start - gotStart, range.end - gotStart);
      } catch (err) {
        if (isMissingObject(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      assertValidKey(key);
      // S3 answers 204 for a key that is not there; a 404 from a stricter store is fine too.
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (!isMissingObject(err)) throw err;
      }
    },
    async list(prefix) {
      assertValidPrefix(prefix);
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
  };
}
