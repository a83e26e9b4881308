// What ffmpeg decodes to give one stretch its sampled frames, when the file's keyframes are farther
// apart than the samples (docs/decisions/0014). A frame can only be decoded after the frames it is
// predicted from, back to its keyframe; the frames after a keyframe's last sample, up to the next
// keyframe, serve no sample at all. So each keyframe is decoded with the frames after it only up
// to the last sample it serves: an ffconcat script cuts the file at those points (in and out points
// on the packets' times, read with ffprobe), and one decoder runs through the pieces. The samples
// are the very frames a full decode gives (same times, same pixels); with a keyframe every 2 s and
// 2 samples a second, 46 frames in 60 are decoded.
//
// Frames no other frame refers to (the B-frames of most cameras) can be skipped as well
// (`-skip_frame noref`); a sample then takes the decoded frame just before it. That is done only
// when the file was checked to keep a decoded frame within 1/15 s before every sample
// (`nonReferenceGap`).
import { spawn } from 'node:child_process';

const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

/** A sample may land this much before its time when frames nothing refers to are skipped. */
export const SAMPLE_SLACK_S = 1 / 15;

/** One video packet, in decode order; times in the stream's time base. */
export interface Packet {
  pts: number;
  dts: number;
  key: boolean;
}

export interface StretchPackets {
  /** Seconds per tick of the stream's time base. */
  tick: number;
  /** The file's start time, µs: ffmpeg counts `-ss` (and so the samples) from it. */
  startUs: number;
  packets: Packet[];
  /**
   * For each video packet, the latest decode time (µs) of the other streams' packets read before
   * it (sound, mostly): ffmpeg's concat demuxer ends a piece at the first packet of any stream
   * past its out point, and files that store their sound ahead of the picture would lose frames.
   * Empty: the file has no other stream.
   */
  othersUs: number[];
  /** The listing reached the end of the file. */
  toEnd: boolean;
}

/** One piece of the file: decoded from `inUs` (a keyframe, or the stretch's start) to `outUs` (a decode time; null: to the end). */
export interface DecodePiece {
  inUs: number;
  outUs: number | null;
}

function probe(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFPROBE, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`ffprobe exited with ${code}: ${err.trim()}`))));
  });
}

/** How far past a stretch's end its packets are listed: the packets just after the last sample give its out point. */
const LISTING_PAST_END_S = 3;

/**
 * The video packets from the keyframe before `fromS` to a little after `toS` (seconds from the
 * file's start), with the time base and start time needed to place them, and the decode times of
 * the other streams' packets between them. Only the packets' headers are read (nothing is
 * decoded). `input` is the file as ffprobe opens it (media/ffmpeg.ts `videoInput`). Null when the
 * file does not say enough to cut it.
 */
export async function readPackets(input: string[], fromS: number, toS: number): Promise<StretchPackets | null> {
  const head = JSON.parse(await probe(['-v', 'error', '-show_entries', 'stream=index,codec_type,time_base:stream_disposition=attached_pic:format=start_time', '-of', 'json', ...input])) as {
    streams?: Array<{ index: number; codec_type?: string; time_base?: string; disposition?: { attached_pic?: number } }>;
    format?: { start_time?: string };
  };
  const ticks = new Map<number, number>();
  for (const stream of head.streams ?? []) {
    const [num, den] = (stream.time_base ?? '').split('/').map(Number);
    if (num && den) ticks.set(stream.index, num / den);
  }
  // The first video stream that is not a cover picture: ffmpeg's V:0, as every other reader takes.
  const video = head.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const tick = video && ticks.get(video.index);
  if (!video || !tick) return null;
  const startUs = head.format?.start_time ? Math.round(Number(head.format.start_time) * 1e6) : 0;
  if (!Number.isFinite(startUs)) return null;
  const from = startUs / 1e6 + fromS;
  const until = startUs / 1e6 + toS + LISTING_PAST_END_S;
  // Every stream's packets, in the order the demuxer reads them.
  const csv = await probe(['-v', 'error', '-read_intervals', `${from.toFixed(6)}%${until.toFixed(6)}`, '-show_entries', 'packet=stream_index,pts,dts,flags', '-of', 'csv=p=0', ...input]);
  const packets: Packet[] = [];
  const othersUs: number[] = [];
  let otherUs = -Infinity;
  let lastUs = -Infinity;
  for (const line of csv.split('\n')) {
    if (!line) continue;
    const [index, pts, dts, flags] = line.split(',');
    const stream = Number(index);
    if (stream !== video.index) {
      // A packet of another stream without a decode time is never compared with an out point.
      const other = ticks.get(stream);
      if (other && /^-?\d+$/.test(dts ?? '')) otherUs = Math.max(otherUs, Number(dts) * other * 1e6);
      if (Number.isFinite(otherUs)) lastUs = Math.max(lastUs, otherUs);
      continue;
    }
    // A video packet without times (some containers leave them out) cannot be placed: no plan.
    if (!/^-?\d+$/.test(pts ?? '') || !/^-?\d+$/.test(dts ?? '')) return null;
    packets.push({ pts: Number(pts), dts: Number(dts), key: flags?.startsWith('K') ?? false });
    othersUs.push(otherUs);
    lastUs = Math.max(lastUs, Number(dts) * tick * 1e6);
  }
  // ffprobe stops at the first packet of any stream past the interval, so with the sound ahead the
  // picture's listing ends early; it must still reach well past the last sample.
  const toEnd = lastUs < (until - 0.5) * 1e6;
  const lastVideo = packets.at(-1);
  if (!toEnd && (!lastVideo || lastVideo.dts * tick < startUs / 1e6 + toS + 1)) return null;
  return { tick, startUs, packets, othersUs: othersUs.some(Number.isFinite) ? othersUs : [], toEnd };
}

/**
 * The pieces to decode for the samples at `startS + k / sampleFps` (k = 0, 1, … before `endS`):
 * for each keyframe, from it to the last packet (in decode order) whose frame is at or before the
 * last sample it serves. A sample takes the last frame at or before its time, as the fps filter
 * with round=up does; that frame and all it is predicted from are in its piece. Pieces that
 * touch are joined. Null when the listing does not start on a keyframe the samples can use.
 */
export function planPieces(listing: StretchPackets, startS: number, endS: number, sampleFps: number): DecodePiece[] | null {
  const { tick, startUs, packets } = listing;
  const keys = packets.flatMap((p, i) => (p.key && (i === 0 || !hasLeadingFrames(packets, i)) ? [i] : []));
  if (!keys.length || !packets.length) return null;
  const originUs = startUs + Math.round(startS * 1e6);
  // A packet's time in seconds from the stretch's start, as ffmpeg will shift it.
  const origin = Math.round(originUs / 1e6 / tick);
  const at = (ticks: number) => (ticks - origin) * tick;
  const groups: Array<{ key: number; last: number }> = [];
  for (let k = 0; startS + k / sampleFps < endS - 1e-9; k++) {
    const s = k / sampleFps;
    let key = -1;
    for (const i of keys) if (at(packets[i]!.pts) <= s + 1e-9) key = i;
    // Before the first keyframe listed: a file whose picture starts a little after its sound, or a
    // seek that lands on the keyframe just after the start (its decode time is before it). The
    // decoder starts there either way, and the sample takes what a plain decode would give it.
    if (key < 0 && keys[0] === 0) key = 0;
    if (key < 0) return null;
    // Every packet of this keyframe's run whose frame is at or before the sample, and of the next
    // run too: in an open GOP the frames shown just before a keyframe are decoded after it (its
    // leading B-frames, predicted from both sides), so this run's piece goes on through it.
    const next = keys.find((i) => i > key);
    const end = (next !== undefined && keys.find((i) => i > next)) || packets.length;
    let last = key;
    for (let i = key; i < end; i++) if (at(packets[i]!.pts) <= s + 1e-9) last = i;
    const group = groups.at(-1);
    if (group?.key === key) group.last = Math.max(group.last, last);
    else groups.push({ key, last });
  }
  if (!groups.length) return null;
  const pieces: Array<{ inUs: number; key: number; last: number }> = [];
  for (const [g, group] of groups.entries()) {
    const previous = pieces.at(-1);
    // The next packet in the file is this keyframe: go on decoding without a cut.
    if (previous && previous.last + 1 === group.key) {
      previous.last = group.last;
      continue;
    }
    // In points are the keyframe's own time (rounded up to the µs, so that the seek lands on it),
    // the stretch's start for the first piece.
    const inUs = g === 0 ? originUs : Math.ceil(packets[group.key]!.pts * tick * 1e6 - 1e-6);
    pieces.push({ inUs, key: group.key, last: group.last });
  }
  const outPoint = ({ inUs, last }: { inUs: number; last: number }): number | null => {
    const after = packets[last + 1];
    // Cut between the last packet needed and the next one, by decode time; nothing after the
    // last packet of a listing that reached the end of the file.
    if (!after && listing.toEnd) return null;
    let outUs = Math.round((after ? (packets[last]!.dts + after.dts) / 2 : packets[last]!.dts + 1) * tick * 1e6);
    // Past every other stream's packet read before the last one needed: the demuxer ends a piece
    // at the first packet of any stream past its out point.
    const otherUs = listing.othersUs[last] ?? -Infinity;
    if (otherUs >= outUs) outUs = Math.floor(otherUs) + 1;
    return atOrAfter(inUs, outUs);
  };
  const joined: typeof pieces = [];
  for (const piece of pieces) {
    const previous = joined.at(-1);
    const outUs = previous && outPoint(previous);
    // The piece before reads on into this one's keyframe (its out point moved past the sound read
    // ahead): decoding them apart would give those frames twice, so go on without a cut.
    if (previous && (outUs === null || outUs! > packets[piece.key]!.dts * tick * 1e6)) previous.last = piece.last;
    else joined.push({ ...piece });
  }
  return joined.map((piece) => ({ inUs: piece.inUs, outUs: outPoint(piece) }));
}

/**
 * True when frames shown before the keyframe at `i` are decoded after it: an open GOP's leading
 * B-frames, predicted from the run before as well. ffmpeg's decoder does not start cleanly at such
 * a keyframe in the middle of a stream (the frames held for reordering around it were lost in
 * tests), so the file is not cut there: the run before goes on through it.
 */
function hasLeadingFrames(packets: Packet[], i: number): boolean {
  const key = packets[i]!;
  for (let j = i + 1; j < packets.length && !packets[j]!.key; j++) if (packets[j]!.pts < key.pts) return true;
  return false;
}

/**
 * The out point is a decode time and the in point a presentation time. With B-frames a keyframe
 * is decoded before it is shown, so a piece that is its keyframe alone would end before it begins,
 * and ffmpeg refuses the whole script (issue 32). Moving the out point up to the in point only
 * adds packets after the last one needed, never drops one (each is decoded before it is shown):
 * those frames fall between samples and no sample takes them.
 */
function atOrAfter(inUs: number, outUs: number): number {
  return Math.max(inUs, outUs);
}

/** True when every piece ends at or after its start and the pieces follow one another: what ffmpeg's concat demuxer accepts. */
export function piecesAreValid(pieces: DecodePiece[]): boolean {
  return pieces.every((p, i) => (p.outUs === null ? i === pieces.length - 1 : p.outUs >= p.inUs) && (i === 0 || p.inUs > pieces[i - 1]!.inUs));
}

const seconds = (us: number) => `${us < 0 ? '-' : ''}${Math.floor(Math.abs(us) / 1e6)}.${String(Math.abs(us) % 1e6).padStart(6, '0')}`;

/**
 * The ffconcat script for the pieces. Each piece's duration runs to the next one's in point, so the
 * demuxer shifts every packet by the same amount (the first in point): the frames keep their
 * times, counted from the stretch's start (ffmpeg must run with -copyts). Each piece opens the file
 * as `input` does: the same single demuxer, local files only.
 */
export function concatScript(input: string[], pieces: DecodePiece[]): string {
  const url = input[input.lastIndexOf('-i') + 1] ?? '';
  const demuxer = input.includes('-format_whitelist') ? input[input.indexOf('-format_whitelist') + 1] : undefined;
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const lines = ['ffconcat version 1.0'];
  pieces.forEach((piece, i) => {
    lines.push(`file ${quote(url.startsWith('file:') ? url : `file:${url}`)}`, 'option protocol_whitelist file');
    if (demuxer) lines.push(`option format_whitelist ${demuxer}`);
    lines.push(`inpoint ${seconds(piece.inUs)}`);
    if (piece.outUs !== null) lines.push(`outpoint ${seconds(piece.outUs)}`);
    const next = pieces[i + 1];
    if (next) lines.push(`duration ${seconds(next.inUs - piece.inUs)}`);
  });
  return `${lines.join('\n')}\n`;
}

/** What ffmpeg is given for a stretch's samples: its input options and the script to write to its stdin. */
export interface DecodePlan {
  args: string[];
  script: string;
  /** The share of the stretch's frames that are decoded. */
  share: number;
  /** How many samples the pieces must give at least (those up to the last frame listed). */
  samples: number;
  /** How many samples the stretch has: a piece that reads on past its end gives more, not the stretch's. */
  maxSamples: number;
}

/**
 * The input for the samples of [startS, endS): the pieces of the file they need, as an ffconcat
 * script read from stdin, with -copyts so the frames keep their times. Null when the file cannot
 * be cut (the caller decodes the stretch whole).
 */
export async function planDecode(input: string[], startS: number, endS: number, sampleFps: number): Promise<DecodePlan | null> {
  const listing = await readPackets(input, startS, endS);
  const pieces = listing && planPieces(listing, startS, endS, sampleFps);
  if (!listing || !pieces || !piecesAreValid(pieces)) return null;
  const script = concatScript(input, pieces);
  // How many of the stretch's packets the pieces take (by decode time), for the bench.
  const tick = listing.tick;
  const inside = (dts: number, from: number, to: number | null) => dts * tick * 1e6 >= from && (to === null || dts * tick * 1e6 < to);
  const startUs = listing.startUs + Math.round(startS * 1e6);
  const endUs = listing.startUs + Math.round(endS * 1e6);
  const stretch = listing.packets.filter((p) => p.dts * tick * 1e6 >= startUs && p.dts * tick * 1e6 < endUs);
  const decoded = stretch.filter((p) => pieces.some((piece) => inside(p.dts, piece.inUs, piece.outUs)));
  // Every sample up to the last frame listed must come out; fewer means the pieces lost frames.
  const lastFrameS = Math.max(...listing.packets.map((p) => p.pts)) * tick - listing.startUs / 1e6 - startS;
  let samples = 0;
  while (samples / sampleFps < endS - startS - 1e-9 && samples / sampleFps <= lastFrameS + 1e-6) samples++;
  let maxSamples = samples;
  while (maxSamples / sampleFps < endS - startS - 1e-9) maxSamples++;
  return {
    args: ['-protocol_whitelist', 'file,pipe', '-format_whitelist', 'concat', '-f', 'concat', '-safe', '0', '-i', 'pipe:0', '-copyts'],
    script,
    share: stretch.length ? decoded.length / stretch.length : 1,
    samples,
    maxSamples,
  };
}

/**
 * The times (seconds from the file's start) of the frames still decoded over its first
 * `withinSeconds` when frames no other frame refers to are skipped (decoding those once).
 */
export async function referenceFrameTimes(input: string[], withinSeconds: number): Promise<number[]> {
  const csv = await probe(['-v', 'error', '-threads', '1', '-skip_frame', 'noref', '-select_streams', 'V:0', '-read_intervals', `%+${withinSeconds}`, '-show_entries', 'frame=pts_time:format=start_time', '-of', 'csv', ...input]);
  const start = Number(/^format,([-\d.]+)/m.exec(csv)?.[1] ?? 0) || 0;
  return [...csv.matchAll(/^frame,([-\d.]+)/gm)].map((m) => Number(m[1]) - start).filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
}

/**
 * How far before its time a sample can land when those frames are skipped: the fps filter takes
 * the last decoded frame at or before each sample. When the samples fall on frame times (the
 * frame rate a whole multiple of the sample rate, frames on its grid from the file's start) that is
 * the longest gap between decoded frames less one frame; otherwise up to the gap itself.
 * Infinity when too few frames came out to tell.
 */
export function nonReferenceSlack(times: number[], fps: number | null, sampleFps: number): number {
  if (times.length < 3 || !fps) return Infinity;
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  const perSample = fps / sampleFps;
  const onGrid = Math.abs(perSample - Math.round(perSample)) < 1e-6 && times.every((t) => Math.abs(t * fps - Math.round(t * fps)) < 0.01);
  return onGrid ? gap - 1 / fps : gap;
}
