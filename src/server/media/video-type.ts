// What kind of video a file is, judged by its own structure (never by its name, the browser's word
// or a few magic bytes): MP4 and MOV are a chain of ISO-BMFF boxes that covers the file exactly,
// starts with `ftyp` (or an atom an older QuickTime file starts with) and holds a `moov` with
// tracks; WebM (and MKV) is an EBML header of doc type `webm` (`matroska`) followed by its Segment;
// an MPEG transport stream (the .MTS and .M2TS of AVCHD camcorders, the .ts of recorders and
// streaming boxes) is whole 188-byte packets (192 with AVCHD's timecode before each), each starting
// with the sync byte, the programme table among the first. A text file that merely has "free" at
// bytes 4–8 (a DASH manifest, issue 21) is none of these. ffmpeg is then told which container to
// read (media/ffmpeg.ts `videoInput`), so it never guesses from the contents.
import fs from 'node:fs/promises';

export type VideoContainer = 'mp4' | 'mov' | 'webm' | 'mkv' | 'ts' | 'm2ts';

/** ffmpeg's demuxer for each container. */
export const DEMUXER: Record<VideoContainer, 'mov' | 'matroska' | 'mpegts'> = { mp4: 'mov', mov: 'mov', webm: 'matroska', mkv: 'matroska', ts: 'mpegts', m2ts: 'mpegts' };

/** What a reel delivered by hand may be (MP4, MOV or WebM, and MKV, WebM's parent): a camera's transport stream is footage only. */
export const DELIVERABLE_CONTAINERS: ReadonlySet<VideoContainer> = new Set(['mp4', 'mov', 'webm', 'mkv']);

/** Atoms a QuickTime file may start with instead of `ftyp`. */
const FIRST_ATOMS = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
/** A box type is four printable characters (© is used by QuickTime). */
const BOX_TYPE = /^[\x20-\x7e\xa9]{4}$/;
/** Far more boxes than any camera writes (a fragmented file has two a fragment). */
const MAX_BOXES = 500_000;

/** `length` bytes from `at` (fewer at the end of the file). */
export type Reader = (at: number, length: number) => Promise<Buffer>;

/**
 * The container of the file at `file` by its structure, or null when it is not a whole MP4, MOV or
 * WebM file (not a video, truncated, or its boxes do not add up).
 */
export async function readVideoContainer(file: string): Promise<VideoContainer | null> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read: Reader = async (at, length) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
      if (buffer.length) await handle.read(buffer, 0, buffer.length, at);
      return buffer;
    };
    return await containerOf(read, size);
  } finally {
    await handle.close();
  }
}

/** The same judgement on any `size` bytes `read` gives (a stored object read by range). */
export async function containerOf(read: Reader, size: number): Promise<VideoContainer | null> {
  const head = await read(0, 8);
  if (head.length >= 4 && head.readUInt32BE(0) === EBML_ID) return readMatroska(read, size);
  if (head[0] === SYNC_BYTE || head[4] === SYNC_BYTE) {
    const start = await read(0, TS_HEAD);
    const packet = transportPacketSize(start);
    if (packet) return readTransportStream(read, size, start, packet);
  }
  return readIsoBmff(read, size);
}

/**
 * True when the file begins as an MP4, MOV or WebM does (an `ftyp` box, or an EBML header),
 * whatever follows: a file that starts so but is not whole (readVideoContainer) was cut off or
 * damaged on its way, rather than being something other than a video.
 */
export async function startsLikeVideo(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead >= 4 && head.readUInt32BE(0) === EBML_ID) return true;
    if (bytesRead >= 12 && head.toString('latin1', 4, 8) === 'ftyp' && head.readUInt32BE(0) >= 16) return true;
    const start = Buffer.alloc(TS_HEAD);
    const { bytesRead: startRead } = await handle.read(start, 0, TS_HEAD, 0);
    return transportPacketSize(start.subarray(0, startRead)) !== null;
  } finally {
    await handle.close();
  }
}

const SYNC_BYTE = 0x47;
/** The start of a transport stream read to judge it: a few hundred packets, the programme table among them. */
const TS_HEAD = 64 * 1024;
/** Where else its packets are checked: the end (a cut-off upload ends mid-packet) and this many places between. */
const TS_TAIL = 64 * 1024;
const TS_PLACES = 8;
const TS_PLACE_BYTES = 16 * 1024;

/**
 * 188 or 192 when `head` starts as a transport stream does (the sync byte at the start of each of
 * its first packets, after AVCHD's 4-byte timecode for 192), else null.
 */
function transportPacketSize(head: Buffer): 188 | 192 | null {
  for (const size of [188, 192] as const) {
    const offset = size - 188;
    const packets = Math.min(8, Math.floor(head.length / size));
    if (packets < 2) continue;
    let synced = true;
    for (let i = 0; i < packets && synced; i++) synced = head[i * size + offset] === SYNC_BYTE;
    if (synced) return size;
  }
  return null;
}

/** Whether every whole packet of `bytes` (read from a packet boundary of the file) starts with the sync byte. */
function packetsSynced(bytes: Buffer, size: 188 | 192): boolean {
  const offset = size - 188;
  for (let at = 0; at + size <= bytes.length; at += size) if (bytes[at + offset] !== SYNC_BYTE) return false;
  return true;
}

/**
 * A transport stream: whole packets (the file a multiple of the packet size), the sync byte at
 * each packet of its start, its end and places between, and the programme association table
 * (PID 0), which names the programme and so its video, among the first packets.
 */
async function readTransportStream(read: Reader, size: number, head: Buffer, packet: 188 | 192): Promise<'ts' | 'm2ts' | null> {
  if (size % packet !== 0 || !packetsSynced(head, packet)) return null;
  const offset = packet - 188;
  let table = false;
  for (let at = 0; at + packet <= head.length && !table; at += packet) table = ((head[at + offset + 1]! & 0x1f) << 8 | head[at + offset + 2]!) === 0;
  if (!table) return null;
  const packets = size / packet;
  const places = [Math.max(0, packets - Math.floor(TS_TAIL / packet))];
  for (let i = 1; i <= TS_PLACES; i++) places.push(Math.floor((packets * i) / (TS_PLACES + 1)));
  for (const first of places) {
    const bytes = await read(first * packet, first === places[0] ? TS_TAIL : TS_PLACE_BYTES);
    if (!packetsSynced(bytes, packet)) return null;
  }
  return packet === 192 ? 'm2ts' : 'ts';
}

interface Box {
  type: string;
  /** Where the box's content starts and where the box ends. */
  body: number;
  end: number;
}

/** The boxes from `start` to `end`, which they must cover exactly; null when they do not. */
async function boxesIn(read: Reader, start: number, end: number, first?: (type: string) => boolean): Promise<Box[] | null> {
  const boxes: Box[] = [];
  for (let at = start; at < end; ) {
    if (end - at < 8 || boxes.length >= MAX_BOXES) return null;
    const header = await read(at, 16);
    const type = header.toString('latin1', 4, 8);
    if (!BOX_TYPE.test(type)) return null;
    if (!boxes.length && first && !first(type)) return null;
    let size = header.readUInt32BE(0);
    let body = at + 8;
    if (size === 1) {
      if (header.length < 16) return null;
      size = Number(header.readBigUInt64BE(8));
      body = at + 16;
    } else if (size === 0) {
      size = end - at; // the last box runs to the end
    }
    if (size < body - at || at + size > end) return null;
    boxes.push({ type, body, end: at + size });
    at += size;
  }
  return boxes;
}

async function readIsoBmff(read: Reader, size: number): Promise<VideoContainer | null> {
  const boxes = await boxesIn(read, 0, size, (type) => FIRST_ATOMS.has(type));
  if (!boxes?.length) return null;
  // `ftyp` comes first when there is one, and once.
  if (boxes.some((b, i) => b.type === 'ftyp' && i > 0)) return null;
  // One movie box, whose own boxes add up and include at least one track.
  const movies = boxes.filter((b) => b.type === 'moov');
  if (movies.length !== 1) return null;
  const tracks = await boxesIn(read, movies[0]!.body, movies[0]!.end);
  if (!tracks?.some((b) => b.type === 'trak')) return null;
  if (boxes[0]!.type !== 'ftyp') return 'mov';
  if (boxes[0]!.end - boxes[0]!.body < 8) return null;
  return (await read(boxes[0]!.body, 4)).toString('latin1') === 'qt  ' ? 'mov' : 'mp4';
}

const EBML_ID = 0x1a45dfa3;
const DOC_TYPE_ID = 0x4282;
const SEGMENT_ID = 0x18538067;
const VOID_ID = 0xec;

/** An EBML variable-length number at `at` of `bytes`: its value (marker kept for ids) and length. */
function vint(bytes: Buffer, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1 for 0b1xxxxxxx … 8 for 0b00000001
  if (length > 8 || at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = (first & (0xff >> length)) === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** An EBML element's id and size at `at` of `bytes`, and where its content starts. */
function element(bytes: Buffer, at: number) {
  const id = vint(bytes, at, true);
  if (!id || id.length > 4) return null;
  const size = vint(bytes, at + id.length, false);
  if (!size) return null;
  return { id: id.value, size: size.value, unknown: size.unknown, body: at + id.length + size.length };
}

/**
 * An EBML header of doc type webm (or matroska, which some cameras and screen recorders write),
 * then (after any Void) a Segment that fits in the file.
 */
async function readMatroska(read: Reader, size: number): Promise<'webm' | 'mkv' | null> {
  const docType = await matroskaDocType(read, size);
  return docType === 'webm' ? 'webm' : docType === 'matroska' ? 'mkv' : null;
}

async function matroskaDocType(read: Reader, size: number): Promise<string | null> {
  const head = await read(0, 4096);
  const header = element(head, 0);
  if (!header || header.id !== EBML_ID || header.unknown || header.body + header.size > head.length) return null;
  let docType: string | null = null;
  for (let at = header.body; at < header.body + header.size; ) {
    const child = element(head, at);
    if (!child || child.unknown || child.body + child.size > header.body + header.size) return null;
    if (child.id === DOC_TYPE_ID) docType = head.toString('latin1', child.body, child.body + child.size).replace(/\0+$/, '');
    at = child.body + child.size;
  }
  if (docType !== 'webm' && docType !== 'matroska') return null;
  for (let at = header.body + header.size; ; ) {
    const next = element(await read(at, 16), 0);
    if (!next) return null;
    const body = at + (next.body);
    if (next.id === SEGMENT_ID) return next.unknown || body + next.size <= size ? docType : null;
    if (next.id !== VOID_ID || next.unknown || body + next.size > size) return null;
    at = body + next.size;
  }
}

/**
 * The address a stored video is served to ffmpeg at (media/stored-video.ts): loopback, a random
 * 64-hex path, and the container that was judged before it was served as the extension.
 */
export const loopbackVideoUrl = (port: number, token: string, container: VideoContainer) => `http://127.0.0.1:${port}/${token}.${container}`;

const LOOPBACK_VIDEO_URL = /^http:\/\/127\.0\.0\.1:\d{1,5}\/[0-9a-f]{64}\.(mp4|mov|webm|mkv|ts|m2ts)$/;

/** The container of such an address, or null when `input` is not one (a local file's path). */
export function loopbackVideoContainer(input: string): VideoContainer | null {
  return (LOOPBACK_VIDEO_URL.exec(input)?.[1] as VideoContainer | undefined) ?? null;
}
