// A stored video as ffmpeg reads it. On this machine's disk that is its own file. In the bucket it
// is served to ffmpeg over loopback, by range, for as long as the work needs it: a thumbnail
// reads one frame's worth, a clip its seconds and the file's index, a camera-hour is not copied
// to the worker's disk first. The address is 127.0.0.1 with a random path that only this object
// answers at; the object's structure is judged (media/video-type.ts) before it is served, and
// media/ffmpeg.ts `videoInput` gives ffmpeg plain HTTP for that address and nothing else.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { parseRange } from '../http/send-file';
import type { Storage } from '../storage/storage';
import { NotAVideoError } from './ffmpeg';
import { containerOf, loopbackVideoUrl } from './video-type';

/**
 * How much one answer carries. ffmpeg asks for everything from where it reads on and hangs up
 * when it has what it needs; what is already on its way by then (socket buffers hold megabytes on
 * loopback) was read from the bucket for nothing. So answers are windows: a small one where
 * ffmpeg jumps to (an index, a keyframe), doubling while it reads straight on (a clip's seconds),
 * so a long read costs few bucket requests and a jump little waste.
 */
const FIRST_WINDOW = 512 * 1024;
const LARGEST_WINDOW = 8 * 1024 * 1024;

export interface StoredVideo {
  /** What to give media/ffmpeg.ts as the video: a file's path or the loopback address. */
  input: string;
  /** Bytes read from the bucket for it so far (0 for a file on this disk). */
  bytesRead(): number;
  /** Stops serving it; safe to call more than once. */
  close(): Promise<void>;
}

async function readAll(storage: Storage, key: string, start: number, end: number): Promise<Buffer> {
  const body = await storage.read(key, { start, end });
  if (!body) throw new Error('The stored video went missing while it was read.');
  return buffer(body);
}

/**
 * The video stored under `key`, ready for ffmpeg; null when there is no such object. Throws
 * NotAVideoError when a bucket object is not a whole MP4, MOV or WebM file. Close it when done.
 */
export async function openStoredVideo(storage: Storage, key: string): Promise<StoredVideo | null> {
  const local = storage.localPath(key);
  if (local) return { input: local, bytesRead: () => 0, close: async () => {} };
  const object = await storage.stat(key);
  if (!object) return null;

  const { size } = object;
  let read = 0;
  const container = await containerOf(async (at, length) => {
    const end = Math.min(size, at + length) - 1;
    if (end < at) return Buffer.alloc(0);
    const bytes = await readAll(storage, key, at, end);
    read += bytes.length;
    return bytes;
  }, size);
  if (!container) throw new NotAVideoError();

  const token = randomBytes(32).toString('hex');
  const server = http.createServer((req, res) => {
    // The bucket failing: a plain 503 when nothing was sent yet, else the connection drops.
    void serve(req, res).catch(() => (res.headersSent ? res.destroy() : res.writeHead(503).end()));
  });
  /** The one path answered: set once the port is known. */
  let ownPath: string | null = null;
  /** The window last served, by the offset a reader going straight on asks from next. */
  const reading = new Map<number, number>();
  async function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.url !== ownPath || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const range = parseRange(req.headers.range, size);
    if (range === 'invalid') {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const start = range ? range.start : 0;
    const previous = reading.get(start);
    reading.delete(start);
    const window = previous ? Math.min(LARGEST_WINDOW, previous * 2) : FIRST_WINDOW;
    const end = Math.min(range ? range.end : size - 1, start + window - 1);
    if (reading.size > 1000) reading.clear();
    reading.set(end + 1, window);
    const body = req.method === 'HEAD' ? null : await storage.read(key, { start, end });
    if (req.method === 'GET' && !body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(206, {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Content-Length': end - start + 1,
      'Content-Range': `bytes ${start}-${end}/${size}`,
    });
    if (!body) {
      res.end();
      return;
    }
    body.on('data', (part: Buffer) => (read += part.length));
    // ffmpeg hangs up when it seeks elsewhere: the bucket's stream is then dropped, not read on.
    await pipeline(body, res).catch(() => body.destroy());
    // A window short of what was asked ends with the connection: ffmpeg (-reconnect) asks again
    // from where it stopped. (A "Connection: close" header would make it take the end for the file's.)
    if (end < (range ? range.end : size - 1)) res.socket?.end();
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const input = loopbackVideoUrl((server.address() as { port: number }).port, token, container);
  ownPath = new URL(input).pathname;
  let closed: Promise<void> | null = null;
  return {
    input,
    bytesRead: () => read,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
