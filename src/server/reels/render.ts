// The ffmpeg side of a reel: one filter graph per output, one encode.
//   highlight reel: 1920×1080, intro card, the clips in order, outro card, with cross-fades of
//     video (xfade) and sound (acrossfade) between every two pieces;
//   social cut: 1080×1920, the same pieces, each clip cropped by a window that follows the
//     athlete's face (crop-path.ts, moved frame by frame with sendcmd).
// Every clip is cut where the admin set it: seeking the input and re-encoding makes the cut
// frame-exact (a stream copy would snap to the previous keyframe). The spotlight ring is drawn on
// the source frame, so both outputs show it on the face.
import fs from 'node:fs/promises';
import path from 'node:path';
import { outputDuration, REEL_FORMAT, type OutputKind } from '../../common/reel-format';
import { runFfmpeg, videoInput } from '../media/ffmpeg';
import { ringPlacement, spotlightRing } from './cards';
import { cropCommands, planCrop, type FaceSample } from './crop-path';

export const CROSSFADE_S = REEL_FORMAT.crossfadeS;
export const FPS = 30;
/**
 * x264's fastest preset with CABAC and the deblocking filter turned back on: on this 2-core machine
 * about 2.5× the speed of 'veryfast' on 1080p game footage for files of about the same size
 * (docs/decisions/0012-reel-render.md), which is what takes a reel past real time.
 */
const X264 = ['-preset', 'ultrafast', '-x264-params', 'cabac=1:deblock=1', '-crf', '21'];
/** How long the spotlight stays on the athlete from their first sighting in a clip. */
const SPOTLIGHT_S = 1;

export const FORMATS = { reel: REEL_FORMAT.reel, social: REEL_FORMAT.social };
export { outputDuration, type OutputKind };

export interface ClipInput {
  /** The footage file on local disk. */
  file: string;
  startS: number;
  durationS: number;
  width: number;
  height: number;
  hasAudio: boolean;
  /** The athlete's face in this clip, times from the clip's start, in source pixels. */
  faces: FaceSample[];
}

/**
 * The clips the social cut keeps so it lasts at most `maxS`: the best-ranked first, shown in reel
 * order; when even the best clip alone is too long, it is shortened to fit.
 */
export function pickSocialClips<T extends { durationS: number; rank: number }>(clips: T[], maxS: number): T[] {
  const order = clips.map((c, i) => ({ c, i })).sort((a, b) => a.c.rank - b.c.rank);
  const kept: typeof order = [];
  for (const entry of order) {
    if (outputDuration('social', [...kept, entry].map((k) => k.c.durationS)) <= maxS + 1e-9) kept.push(entry);
  }
  if (!kept.length && order.length) {
    const best = order[0]!;
    const room = maxS - outputDuration('social', [0]) - CROSSFADE_S;
    kept.push({ c: { ...best.c, durationS: Math.max(1, Math.floor(room * 10) / 10) }, i: best.i });
  }
  return kept.sort((a, b) => a.i - b.i).map((k) => k.c);
}

const n3 = (v: number) => v.toFixed(3);

export interface RenderOptions {
  kind: OutputKind;
  clips: ClipInput[];
  introPng: string;
  outroPng: string;
  spotlight: boolean;
  /** A folder for the graph's helper files (crop commands, rings). */
  work: string;
  output: string;
  onProgress?: (fraction: number) => void;
}

export async function renderOutput(opts: RenderOptions): Promise<{ durationS: number }> {
  const { kind, clips, work } = opts;
  const format = FORMATS[kind];
  const { width: W, height: H } = format;
  const args: string[] = ['-y', '-v', 'error', '-nostats', '-progress', 'pipe:1'];
  const filters: string[] = [];
  let input = 0;
  const card = (png: string, seconds: number, label: string) => {
    args.push('-loop', '1', '-framerate', String(FPS), '-t', n3(seconds), '-i', png);
    filters.push(`[${input}:v]fps=${FPS},scale=${W}:${H},setsar=1,format=yuv420p,trim=duration=${n3(seconds)}[v${label}]`);
    filters.push(`anullsrc=r=48000:cl=stereo,atrim=duration=${n3(seconds)}[a${label}]`);
    input++;
  };

  card(opts.introPng, format.introS, 'intro');
  for (const [i, clip] of clips.entries()) {
    args.push('-ss', n3(clip.startS), '-t', n3(clip.durationS), ...(await videoInput(clip.file)));
    const source = input++;
    let chain = `[${source}:V]setpts=PTS-STARTPTS,fps=${FPS}`;
    const first = clip.faces.find((f) => f.t >= 0 && f.t < clip.durationS);
    if (opts.spotlight && first) {
      // The ring: a picture input of its own per clip, placed on the first sighting's face and
      // kept inside the frame (a face at the edge gets a smaller ring, or one moved inward).
      const { x, y, size } = ringPlacement(first, clip.width, clip.height);
      const ring = path.join(work, `ring-${kind}-${i}.png`);
      await fs.writeFile(ring, await spotlightRing(size));
      args.push('-i', ring);
      const ringInput = input++;
      filters.push(`${chain}[base${i}]`);
      filters.push(
        `[base${i}][${ringInput}:v]overlay=x=${x}:y=${y}:eof_action=repeat:enable='between(t,${n3(first.t)},${n3(first.t + SPOTLIGHT_S)})'[lit${i}]`,
      );
      chain = `[lit${i}]null`;
    }
    if (kind === 'reel') {
      chain += `,scale=${W}:${H}:force_original_aspect_ratio=decrease,pad=${W}:${H}:-1:-1:color=black`;
    } else {
      const window = planCrop(clip.faces, clip.durationS, clip.width, clip.height, FPS);
      const commands = path.join(work, `crop-${i}.cmd`);
      await fs.writeFile(commands, cropCommands(window, `crop@c${i}`));
      chain += `,sendcmd=f=${commands},crop@c${i}=w=${window.w}:h=${window.h}:x=${window.xs[0]}:y=${window.ys[0]},scale=${W}:${H}`;
    }
    filters.push(`${chain},setsar=1,format=yuv420p,trim=duration=${n3(clip.durationS)},setpts=PTS-STARTPTS[v${i}]`);
    filters.push(
      clip.hasAudio
        ? `[${source}:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad,atrim=duration=${n3(clip.durationS)},asetpts=PTS-STARTPTS[a${i}]`
        : `anullsrc=r=48000:cl=stereo,atrim=duration=${n3(clip.durationS)}[a${i}]`,
    );
  }
  card(opts.outroPng, format.outroS, 'outro');

  const labels = ['intro', ...clips.map((_, i) => String(i)), 'outro'];
  const durations = [format.introS, ...clips.map((c) => c.durationS), format.outroS];
  let video = `vintro`;
  let audio = `aintro`;
  let offset = durations[0]! - CROSSFADE_S;
  for (let k = 1; k < labels.length; k++) {
    const out = k === labels.length - 1 ? 'vout' : `x${k}`;
    const aout = k === labels.length - 1 ? 'aout' : `y${k}`;
    filters.push(`[${video}][v${labels[k]}]xfade=transition=fade:duration=${CROSSFADE_S}:offset=${n3(offset)}[${out}]`);
    filters.push(`[${audio}][a${labels[k]}]acrossfade=d=${CROSSFADE_S}:c1=tri:c2=tri[${aout}]`);
    video = out;
    audio = aout;
    offset += durations[k]! - CROSSFADE_S;
  }
  const durationS = outputDuration(kind, clips.map((c) => c.durationS));
  const graph = path.join(work, `graph-${kind}.txt`);
  await fs.writeFile(graph, filters.join(';\n'));
  args.push(
    '-filter_complex_script', graph,
    '-map', '[vout]', '-map', '[aout]',
    '-map_metadata', '-1', '-map_chapters', '-1',
    '-c:v', 'libx264', ...X264, '-pix_fmt', 'yuv420p', '-r', String(FPS),
    '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2',
    '-movflags', '+faststart',
    '-f', 'mp4', opts.output,
  );
  await runFfmpeg(args, durationS, opts.onProgress);
  return { durationS };
}
