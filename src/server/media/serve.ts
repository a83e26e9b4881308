// Streams a stored object to the client: Range requests for seeking and resumed downloads,
// private caching, nosniff, and an attachment name when it is a download.
import { Readable } from 'node:stream';
import { MEDIA_CACHE_CONTROL } from '../../common/constants';
import { parseRange } from '../http/send-file';
import type { Storage } from '../storage/storage';

export interface ServeOptions {
  method: string;
  rangeHeader?: string;
  /** When set, the browser saves the file under this name. */
  downloadName?: string;
}

/**
 * RFC 6266 Content-Disposition: the UTF-8 name in filename* (RFC 5987: ' ( ) * are escaped too,
 * which encodeURIComponent leaves), and for old clients an ASCII filename: accents dropped
 * (Équipe → Equipe), the en dash as a hyphen, the apostrophe left out, anything else outside printable ASCII, quotes and
 * backslashes as "_".
 */
export function attachment(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2019/g, '')
    .replace(/[^\x20-\x7e]+/g, '_')
    // Filtered again after the normalisation: full-width forms (／ ： ＂ ＼) become / : " \ there.
    .replace(/[\\/:*?"<>|']/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export async function serveStored(storage: Storage, key: string, opts: ServeOptions): Promise<Response | null> {
  const meta = await storage.stat(key);
  if (!meta) return null;
  const headers = new Headers({
    'Content-Type': meta.contentType,
    'Cache-Control': MEDIA_CACHE_CONTROL,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
  });
  if (opts.downloadName) headers.set('Content-Disposition', attachment(opts.downloadName));
  const range = parseRange(opts.rangeHeader, meta.size);
  if (range === 'invalid') {
    headers.set('Content-Range', `bytes */${meta.size}`);
    return new Response(null, { status: 416, headers });
  }
  const status = range ? 206 : 200;
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${meta.size}`);
  headers.set('Content-Length', String(range ? range.end - range.start + 1 : meta.size));
  if (opts.method === 'HEAD' || meta.size === 0) return new Response(null, { status, headers });
  const stream = await storage.read(key, range ?? undefined);
  if (!stream) return null;
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
}
