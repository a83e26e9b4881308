// Streams a file from disk with Range support (video seeking, resumed downloads).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Parses a single "bytes=a-b" range against a size; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export interface SendFileOptions {
  cacheControl: string;
  contentType?: string;
  method?: string;
  rangeHeader?: string;
  /** The request's Accept-Encoding: a precompressed `.br` or `.gz` copy beside the file is sent when it takes one. */
  acceptEncoding?: string;
}

/** Text files, of which the build leaves precompressed copies (scripts/build.mjs). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/** The precompressed copy of `file` the client takes (brotli first), if the build made one. */
async function precompressed(file: string, acceptEncoding: string | undefined) {
  if (!acceptEncoding) return null;
  for (const [encoding, ext] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (!new RegExp(`\\b${encoding}\\b`).test(acceptEncoding)) continue;
    const stat = await fsp.stat(`${file}${ext}`).catch(() => null);
    if (stat?.isFile()) return { path: `${file}${ext}`, encoding, stat };
  }
  return null;
}

/** A Response for `file`, or null when there is no such regular file. */
export async function sendFile(file: string, opts: SendFileOptions): Promise<Response | null> {
  const original = await fsp.stat(file).catch(() => null);
  if (!original?.isFile()) return null;
  // Ranges are asked of the file itself (video seeking), never of a compressed copy.
  const compressed = opts.rangeHeader ? null : await precompressed(file, opts.acceptEncoding);
  const stat = compressed?.stat ?? original;
  const headers = new Headers({
    'Content-Type': opts.contentType ?? contentTypeFor(file),
    'Cache-Control': opts.cacheControl,
    'Accept-Ranges': 'bytes',
    'Last-Modified': original.mtime.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  });
  if (compressed) headers.set('Content-Encoding', compressed.encoding);
  if (COMPRESSIBLE.test(file)) headers.set('Vary', 'Accept-Encoding');
  file = compressed?.path ?? file;
  const range = parseRange(opts.rangeHeader, stat.size);
  if (range === 'invalid') {
    headers.set('Content-Range', `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: stat.size - 1 };
  headers.set('Content-Length', String(stat.size === 0 ? 0 : end - start + 1));
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${stat.size}`);
  const status = range ? 206 : 200;
  if (opts.method === 'HEAD' || stat.size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(fs.createReadStream(file, { start, end })) as ReadableStream;
  return new Response(stream, { status, headers });
}
