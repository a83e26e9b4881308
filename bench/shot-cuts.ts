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
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { colourChange, isShotCut, shotSignature, structureMatch, SHOT_CUT_CHANGE, SHOT_CUT_MATCH, type ShotSignature } from '../src/server/faces/shot-cuts';
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

function report(title: string, data: Awaited<ReturnType<typeof pairs>>, match = SHOT_CUT_MATCH) {
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  const stat = (list: typeof data.moving) => ({ colour: list.map((p) => colourChange(p.a, p.b)), structure: list.map((p) => structureMatch(p.a, p.b)) });
  const m = stat(data.moving);
  const c = stat(data.cuts);
  const cut = (p: { a: ShotSignature; b: ShotSignature }) => (match === SHOT_CUT_MATCH ? isShotCut(p.a, p.b) : colourChange(p.a, p.b) > SHOT_CUT_CHANGE || structureMatch(p.a, p.b) < match);
  const found = data.cuts.filter(cut).length;
  const colourFound = c.colour.filter((v) => v > SHOT_CUT_CHANGE).length;
  const falseCuts = data.moving.filter(cut);
  console.log(`\n${title}: ${data.moving.length} pairs of one shot moving, ${data.cuts.length} cuts`);
  console.log(`  colour change   moving ${range(m.colour)}   cuts ${range(c.colour)}`);
  console.log(`  structure match moving ${range(m.structure)}   cuts ${range(c.structure)}`);
  console.log(`  colour alone (> ${SHOT_CUT_CHANGE}): cuts found ${colourFound}/${data.cuts.length}`);
  console.log(`  colour or structure (< ${match.toFixed(2)}): cuts found ${found}/${data.cuts.length}, false cuts ${falseCuts.length}/${data.moving.length}${falseCuts.length ? ` (${falseCuts.map((p) => p.label).join(', ')})` : ''}`);
  return { found, falseCuts: falseCuts.length, colourFound, cuts: data.cuts.length, moving: data.moving.length, structureMoving: m.structure };
}

runBenchmark(async () => {
  if (!fs.existsSync(DIR)) throw new Error(`the calibration photos are not at ${DIR}`);
  const tune = await pairs(await photos(['bbt1', 'bbt2', 'bbt3', 'amy', 'bernadette', 'howard', 'leonard']));
  const held = await pairs(await photos(['bbt4', 'bbt5', 'penny', 'raj', 'sheldon', 'stuart']));
  const tuned = report('tuning half', tune);
  // The threshold this half suggests: a margin below the lowest match of a moving shot.
  console.log(`  lowest match of a moving shot here: ${Math.min(...tuned.structureMoving).toFixed(2)} (the product uses ${SHOT_CUT_MATCH})`);
  if (process.env.BENCH_SWEEP) {
    for (const set of [tune, held]) {
      const m = set.moving.map((p) => ({ l: p.label, v: structureMatch(p.a, p.b) })).sort((a, b) => a.v - b.v).slice(0, 6);
      console.log('  lowest moving:', m.map((x) => `${x.l}=${x.v.toFixed(2)}`).join(', '));
      for (const t of [0.4, 0.5, 0.6, 0.65, 0.7, 0.75]) {
        const f = set.cuts.filter((p) => colourChange(p.a, p.b) > SHOT_CUT_CHANGE || structureMatch(p.a, p.b) < t).length;
        const fc = set.moving.filter((p) => colourChange(p.a, p.b) > SHOT_CUT_CHANGE || structureMatch(p.a, p.b) < t).length;
        console.log(`  t=${t}: cuts ${f}/${set.cuts.length} false ${fc}/${set.moving.length}`);
      }
    }
  }
  const out = report('held-out half', held);
  console.log(`RESULT shot-cuts held_out cuts_found=${out.found}/${out.cuts} false_cuts=${out.falseCuts}/${out.moving} (colour alone: cuts_found=${out.colourFound}/${out.cuts})`);
});
