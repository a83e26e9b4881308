// Benchmark: how well the face index finds an athlete, by face size. Builds an evaluation set
// from the group photos that ship in @vladmandic/face-api (test/support/face-footage.ts): for
// each face size, two 1080p cameras where four athletes and four other people each appear for a
// few seconds at known times and places. Each athlete's reference photo is made from their photo
// as a different picture (mirrored, recoloured, rotated, re-cropped). Every file is indexed with
// the product's indexer (face worker threads, the default settings), and each athlete is matched
// with the product's matching (proposeAppearances). Prints, per face size, recall (ground-truth
// appearances found) and precision (proposed clips that are really the athlete), for all proposals
// and for the sure ones alone. Goal: recall ≥ 0.9 and precision ≥ 0.95 for faces ≥ 60 px high.
//
//   npx tsx bench/reel-accuracy.ts
//
// The footage has a keyframe every 15 frames (BENCH_KEYFRAME_EVERY), so the indexer decodes the
// keyframes alone, as the job does for such files; those are the very frames it samples when it
// decodes every frame (test/integration/face-index.test.ts checks the two give the same tracks).
//
// Options (environment): BENCH_SIZES (default 40,60,90,140,200), BENCH_SECONDS (default 30),
// BENCH_KEYFRAME_EVERY (default 15; 60 makes footage whose every frame is decoded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/server/config';
import { decodeEmbeddings, encodeEmbeddings } from '../src/server/faces/embeddings';
import { indexSettings, keyframesSuffice } from '../src/server/faces/indexing';
import { proposeAppearances, type IndexedTrack } from '../src/server/faces/matching';
import { createFacePool } from '../src/server/faces/pool';
import type { PhotoFace, SegmentResult } from '../src/server/faces/types';
import { composeFootage, referencePhoto, type Appearance, type Person } from '../test/support/face-footage';
import { intFromEnv, runBenchmark } from './support';

const ATHLETES: Person[] = ['ava', 'bea', 'cleo', 'dana'];
const OTHERS: Person[] = ['eve', 'fay', 'gia', 'hope'];
const SIZES = (process.env.BENCH_SIZES ?? '40,60,90,140,200').split(',').map(Number);
const SECONDS = intFromEnv('BENCH_SECONDS', 30);
const KEYFRAME_EVERY = intFromEnv('BENCH_KEYFRAME_EVERY', 15);
const WINDOW_S = 5;

/** A small deterministic generator, so every run builds the same footage. */
function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

/** Each person once per camera, in their own cell of a 4×2 grid, at a random time. */
function schedule(size: number, camera: number): Appearance[] {
  const next = random(size * 10 + camera);
  const people = [...ATHLETES, ...OTHERS];
  return people.map((person, i) => {
    const from = Math.round(next() * (SECONDS - WINDOW_S) * 10) / 10;
    return {
      person,
      from,
      to: from + WINDOW_S,
      faceHeight: size,
      x: 0.04 + (i % 4) * 0.24,
      y: 0.06 + Math.floor(i / 4) * 0.48,
      drift: (next() - 0.5) * 0.01,
    };
  });
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-bench-accuracy-'));
  const config = loadConfig({ dataDir: work, authSecret: 'bench' });
  const settings = indexSettings(config);
  const pool = createFacePool(config.faces.workers);
  try {
    console.log(`reel-accuracy: ${SIZES.length} face sizes × 2 cameras × ${SECONDS} s of 1080p, ${ATHLETES.length} athletes and ${OTHERS.length} other people`);
    console.log(`settings: ${settings.sampleFps} samples/s, detector input ${settings.detectInputSize}, ${pool.size} face threads, a keyframe every ${KEYFRAME_EVERY} frames`);
    // The athletes' references.
    const refs = new Map<Person, Float32Array>();
    for (const person of ATHLETES) {
      const file = path.join(work, `${person}-reference.jpg`);
      await referencePhoto(person, file);
      const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const faces = await pool.run<PhotoFace[]>({ op: 'analyze-photo', rgb: new Uint8Array(data), width: info.width, height: info.height });
      if (faces.length !== 1) throw new Error(`the reference of ${person} has ${faces.length} faces`);
      refs.set(person, decodeEmbeddings(encodeEmbeddings([faces[0]!.descriptor]))[0]!);
    }
    console.log('\nface px | recall | precision (all) | precision (sure) | proposals | unsure | found/truth');
    for (const size of SIZES) {
      const files = [1, 2].map((camera) => ({ id: `s${size}c${camera}`, camera: `Camera ${camera}`, gameId: 'game', duration: SECONDS, file: path.join(work, `s${size}c${camera}.mp4`), plan: schedule(size, camera) }));
      await Promise.all(files.map((f) => composeFootage(f.file, { width: 1920, height: 1080, seconds: SECONDS, appearances: f.plan, keyframeEvery: KEYFRAME_EVERY })));
      const keyframesOnly = await keyframesSuffice(files[0]!.file, settings.sampleFps, 30);
      const indexed = await Promise.all(
        files.map((f) => pool.run<SegmentResult>({ op: 'index-segment', segment: { file: f.file, startS: 0, endS: SECONDS + 1, width: 1920, height: 1080, keyframesOnly }, settings })),
      );
      const tracks: IndexedTrack[] = indexed.flatMap((result, i) =>
        result.tracks
          .filter((t) => t.descriptors.length)
          .map((t, j) => ({ id: `${files[i]!.id}-${j}`, footageId: files[i]!.id, startS: t.startS, endS: t.endS, faceHeight: t.faceHeight, quality: t.best.quality, embeddings: t.descriptors.map((d) => Float32Array.from(d)) })),
      );
      let truth = 0;
      let found = 0;
      let proposed = 0;
      let correct = 0;
      let sure = 0;
      let sureCorrect = 0;
      let unsure = 0;
      for (const athlete of ATHLETES) {
        const others = ATHLETES.filter((a) => a !== athlete).map((a) => refs.get(a)!);
        const proposals = proposeAppearances(tracks, files, [refs.get(athlete)!], others);
        const overlaps = (p: { footageId: string; startS: number; endS: number }, w: Appearance) => p.startS < w.to && p.endS > w.from;
        for (const f of files) {
          const window = f.plan.find((a) => a.person === athlete)!;
          truth++;
          if (proposals.some((p) => p.footageId === f.id && overlaps(p, window))) found++;
        }
        for (const p of proposals) {
          const window = files.find((f) => f.id === p.footageId)!.plan.find((a) => a.person === athlete)!;
          const right = overlaps(p, window);
          proposed++;
          if (right) correct++;
          if (p.unsure) unsure++;
          else {
            sure++;
            if (right) sureCorrect++;
          }
        }
      }
      const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : ' n/a');
      console.log(
        `${String(size).padStart(7)} | ${ratio(found, truth).padStart(6)} | ${ratio(correct, proposed).padStart(15)} | ${ratio(sureCorrect, sure).padStart(16)} | ${String(proposed).padStart(9)} | ${String(unsure).padStart(6)} | ${found}/${truth}`,
      );
    }
    console.log('\nGoal: recall ≥ 0.90 and precision ≥ 0.95 for faces ≥ 60 px high.');
  } finally {
    await pool.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBenchmark(main);
