// Benchmark: shot cuts between two samples (faces/shot-cuts.ts), on real photographs.
//
// The calibration set (../shared/faces-calibration: 5 group photos of one indoor set, 40 close
// photos of 8 people) stands in for a camera's pictures: within one photo a window that pans (5 to
// 25 % of the picture between samples) or zooms (10 to 20 %) is one shot moving; a window in one
// photo followed by a window in another is a cut, the hard kind among them (two views of one
// room in the same light, a close-up of one person then of another). The thresholds are chosen on
// the first half of the photos (3 group photos, 4 people) and the figures reported on the other
// half. Prints each measure's range on both kinds of pair, the misses and false cuts of the colour
// rule alone and of the product's rule, and ends:
//   RESULT shot-cuts held_out cuts_found=…/… false_cuts=…/… (colour alone: cuts_found=…/…)
// BENCH_SWEEP=1 also prints both halves at other thresholds and their lowest matches of a moving shot.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { colourChange, shotChange, shotSignature, structureMatch, SHOT_CUT_CHANGE, SHOT_CUT_MATCH, type ShotSignature } from '../src/server/faces/shot-cuts';
import { runBenchmark } from './support';

const DIR = path.resolve(import.meta.dirname, '../../shared/faces-calibration');
const W = 640;
const H = 360;

interface Photo {
  name: string;
  file: string;
  width: number;
  height: number;
}

/** A window of the photo (fractions of it: centre, width), as a 16:9 frame of W × H. */
async function view(photo: Photo, cx: number, cy: number, share: number): Promise<ShotSignature> {
  // The window keeps the frame's 16:9 shape inside the photo.
  const aspect = W / H;
  let width = photo.width * share;
  let height = width / aspect;
  if (height > photo.height * share) {
    height = photo.height * share;
    width = height * aspect;
  }
  const left = Math.round(Math.min(Math.max(0, photo.width * cx - width / 2), photo.width - width));
  const top = Math.round(Math.min(Math.max(0, photo.height * cy - height / 2), photo.height - height));
  const { data } = await sharp(photo.file)
    .removeAlpha()
    .toColourspace('srgb')
    .extract({ left, top, width: Math.round(width), height: Math.round(height) })
    .resize(W, H, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return shotSignature({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: W, height: H });
}

async function photos(names: string[]): Promise<Photo[]> {
  const out: Photo[] = [];
  for (const name of names) {
    const files = name.startsWith('bbt') ? [path.join(DIR, `${name}.jpg`)] : [1, 2, 3, 4, 5].map((i) => path.join(DIR, name, `${name}${i}.png`));
    for (const file of files) {
      const meta = await sharp(file).metadata();
      out.push({ name: path.basename(file), file, width: meta.width!, height: meta.height! });
    }
  }
  return out;
}

/** Pairs of samples: one shot moving (pans, zooms, both) and cuts (a view of one photo, then of another). */
async function pairs(set: Photo[]) {
  const moving: Array<{ label: string; a: ShotSignature; b: ShotSignature }> = [];
  const first = new Map<string, ShotSignature>();
  for (const photo of set) {
    const a = await view(photo, 0.5, 0.5, 0.7);
    first.set(photo.name, a);
    for (const pan of [0.05, 0.1, 0.15, 0.25]) moving.push({ label: `${photo.name} pan ${pan}`, a, b: await view(photo, 0.5 + pan * 0.7, 0.5, 0.7) });
    moving.push({ label: `${photo.name} tilt+pan 0.1`, a, b: await view(photo, 0.57, 0.57, 0.7) });
    for (const zoom of [1.1, 1.2]) moving.push({ label: `${photo.name} zoom ${zoom}`, a, b: await view(photo, 0.5, 0.5, 0.7 / zoom) });
    moving.push({ label: `${photo.name} zoom 1.15 + pan 0.1`, a, b: await view(photo, 0.57, 0.5, 0.7 / 1.15) });
  }
  const cuts: Array<{ label: string; a: ShotSignature; b: ShotSignature }> = [];
  for (const p of set) for (const q of set) if (p !== q) cuts.push({ label: `${p.name} → ${q.name}`, a: first.get(p.name)!, b: first.get(q.name)! });
  return { moving, cuts };
}

function report(title: string, data: Awaited<ReturnType<typeof pairs>>) {
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  const stat = (list: typeof data.moving) => ({ colour: list.map((p) => colourChange(p.a, p.b)), structure: list.map((p) => structureMatch(p.a, p.b)) });
  const m = stat(data.moving);
  const c = stat(data.cuts);
  const cutSaid = data.cuts.map((p) => shotChange(p.a, p.b));
  const movingSaid = data.moving.map((p) => shotChange(p.a, p.b));
  const found = cutSaid.filter((v) => v !== 'same').length;
  const sure = cutSaid.filter((v) => v === 'cut').length;
  const colourFound = c.colour.filter((v) => v > SHOT_CUT_CHANGE).length;
  const falseCuts = data.moving.filter((_, i) => movingSaid[i] === 'cut');
  const maybes = movingSaid.filter((v) => v === 'maybe').length;
  console.log(`\n${title}: ${data.moving.length} pairs of one shot moving, ${data.cuts.length} cuts`);
  console.log(`  colour change   moving ${range(m.colour)}   cuts ${range(c.colour)}`);
  console.log(`  structure match moving ${range(m.structure)}   cuts ${range(c.structure)}`);
  console.log(`  colour alone (> ${SHOT_CUT_CHANGE}): cuts found ${colourFound}/${data.cuts.length}`);
  console.log(`  the product: cuts found ${found}/${data.cuts.length} (${sure} sure, ${found - sure} maybe), one shot called a sure cut ${falseCuts.length}/${data.moving.length}${falseCuts.length ? ` (${falseCuts.map((p) => p.label).join(', ')})` : ''}, maybe ${maybes}/${data.moving.length}`);
  return { found, falseCuts: falseCuts.length, maybes, colourFound, cuts: data.cuts.length, moving: data.moving.length, structureMoving: m.structure };
}

/**
 * Real edited clips, cut by people: PySceneDetect's test clips (github.com/Breakthrough/PySceneDetect,
 * tests/resources at commit d0c0be2 and later, kept outside the repository in BENCH_EDITS_DIR). Cut
 * times were read frame by frame from each clip (ffmpeg's scdet filter, then looked at); fades
 * and dissolves are spans left out of the figures (a face is not followed through black).
 */
const EDITS: Array<{ file: string; what: string; cuts: number[]; gradual?: Array<[number, number]>; tuning?: boolean }> = [
  { file: 'issue-195-aspect-ratio.mp4', tuning: true, what: 'documentary, 25 s, 704×576: hands, a jar, two women at a table, a glass', cuts: [2.8, 6.8, 12.04, 16.84, 19.36] },
  { file: 'issue-134-rotate.mp4', what: 'film, 10 s, 1280×544 turned a quarter: a panel, a screen typing, two faces', cuts: [3.754, 8.759] },
  { file: 'issue-236-split-copy.mkv', what: 'animation, 2 s, 1080p: one castle bridge, wide then close (the same colours)', cuts: [0.792] },
  { file: 'testvideo.mp4', tuning: true, what: 'nature, 24 s, 720p: a leaf, a deer, a rock, bark, with fades', cuts: [1.001, 6.006], gradual: [[6.3, 8.2], [10.9, 14.2], [17.4, 18.7], [22.3, 24.1]] },
];
const EDITS_DIR = process.env.BENCH_EDITS_DIR ?? path.join(os.homedir(), '.cache', 'giot-edits');
const EDIT_STEP = 0.1;

/** The clip's pictures every 0.1 s (upright, 640 px wide) as shot signatures. */
function signaturesOf(file: string): Promise<ShotSignature[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-v', 'error', '-i', file, '-an', '-vf', `fps=${1 / EDIT_STEP},scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
    const size = W * H * 3;
    const out: ShotSignature[] = [];
    let pending = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= size) {
        out.push(shotSignature({ data: new Uint8Array(pending.subarray(0, size)), width: W, height: H }));
        pending = pending.subarray(size);
      }
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`ffmpeg: ${err}`))));
  });
}

/**
 * Every pair of pictures half a second apart (the index's sampling), at every phase 0.1 s apart:
 * a cut when a cut lies between them, one shot when nothing does; pairs within 0.06 s of a cut or
 * touching a fade are left out.
 */
async function realEdits(clips: typeof EDITS) {
  const result = { cuts: 0, found: 0, same: 0, falseCuts: 0, maybes: 0, clips: 0, missed: [] as string[], falseAt: [] as string[] };
  for (const clip of clips) {
    const file = path.join(EDITS_DIR, clip.file);
    if (!fs.existsSync(file)) {
      console.log(`  ${clip.file}: not in ${EDITS_DIR}, left out`);
      continue;
    }
    result.clips++;
    const frames = await signaturesOf(file);
    const gap = Math.round(0.5 / EDIT_STEP);
    let cuts = 0;
    let found = 0;
    let same = 0;
    let falseCuts = 0;
    let maybes = 0;
    for (let i = 0; i + gap < frames.length; i++) {
      const from = i * EDIT_STEP;
      const to = (i + gap) * EDIT_STEP;
      if (clip.cuts.some((c) => Math.abs(c - from) < 0.06 || Math.abs(c - to) < 0.06)) continue;
      if (clip.gradual?.some(([a, b]) => to > a && from < b)) continue;
      const cutBetween = clip.cuts.some((c) => c > from && c < to);
      const said = shotChange(frames[i]!, frames[i + gap]!);
      const at = `${clip.file} ${from.toFixed(1)}→${to.toFixed(1)} s`;
      if (cutBetween) {
        cuts++;
        if (said !== 'same') found++;
        else result.missed.push(at);
      } else {
        same++;
        if (said === 'maybe') maybes++;
        if (said === 'cut') {
          falseCuts++;
          result.falseAt.push(at);
        }
      }
    }
    console.log(`  ${clip.file.padEnd(28)} ${clip.cuts.length} cut(s): pairs across a cut ${found}/${cuts} found; pairs within a shot ${falseCuts}/${same} a sure cut, ${maybes} maybe  (${clip.what})`);
    result.cuts += cuts;
    result.found += found;
    result.same += same;
    result.falseCuts += falseCuts;
    result.maybes += maybes;
  }
  if (result.missed.length) console.log(`  missed: ${result.missed.join(', ')}`);
  if (result.falseAt.length) console.log(`  false cuts: ${result.falseAt.join(', ')}`);
  return result;
}

runBenchmark(async () => {
  if (!fs.existsSync(DIR)) throw new Error(`the calibration photos are not at ${DIR}`);
  const tune = await pairs(await photos(['bbt1', 'bbt2', 'bbt3', 'amy', 'bernadette', 'howard', 'leonard']));
  const held = await pairs(await photos(['bbt4', 'bbt5', 'penny', 'raj', 'sheldon', 'stuart']));
  const tuned = report('tuning half', tune);
  // The threshold this half suggests: a margin below the lowest match of a moving shot.
  console.log(`  lowest match of a moving shot here: ${Math.min(...tuned.structureMoving).toFixed(2)} (the product's 'maybe' below ${SHOT_CUT_MATCH})`);
  if (process.env.BENCH_SWEEP) {
    for (const set of [tune, held]) {
      const m = set.moving.map((p) => ({ l: p.label, v: structureMatch(p.a, p.b) })).sort((a, b) => a.v - b.v).slice(0, 6);
      console.log('  lowest moving:', m.map((x) => `${x.l}=${x.v.toFixed(2)}`).join(', '));
    }
  }
  const out = report('held-out half', held);
  console.log(`\nreal edits (pairs 0.5 s apart at every 0.1 s phase; the sure thresholds chosen on ${EDITS.filter((e) => e.tuning).map((e) => e.file).join(' and ')}):`);
  const tuningEdits = await realEdits(EDITS.filter((e) => e.tuning));
  console.log(`  tuning clips: cuts found ${tuningEdits.found}/${tuningEdits.cuts}, one shot called a sure cut ${tuningEdits.falseCuts}/${tuningEdits.same}, maybe ${tuningEdits.maybes}/${tuningEdits.same}`);
  const edits = await realEdits(EDITS.filter((e) => !e.tuning));
  console.log(`  held-out clips: cuts found ${edits.found}/${edits.cuts}, one shot called a sure cut ${edits.falseCuts}/${edits.same}, maybe ${edits.maybes}/${edits.same}`);
  const editFigures = edits.clips ? ` real_edits_held_out cuts_found=${edits.found}/${edits.cuts} false_cuts=${edits.falseCuts}/${edits.same} maybe=${edits.maybes}/${edits.same}` : ' real_edits=none';
  console.log(`RESULT shot-cuts held_out cuts_found=${out.found}/${out.cuts} false_cuts=${out.falseCuts}/${out.moving} maybe=${out.maybes}/${out.moving} (colour alone: cuts_found=${out.colourFound}/${out.cuts})${editFigures}`);
});
