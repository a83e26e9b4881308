// Benchmark: what looking for people costs, beside looking for faces (issue 35, item 7).
//
// One 1080p frame: the first group photo of the calibration set (../shared/faces-calibration),
// scaled to 1920 × 1080, or BENCH_FRAME=<picture> (a real game frame kept outside the repository).
// Times, on this thread, the face detector's full look at the frame (what the index does on one
// sample in three) and the person detector (people/detector.ts) with its frame covered by 1, 2 and
// 3 rows of regions, each the median of BENCH_RUNS runs after one warm-up. Prints each as a ratio
// to the face look, with the people found, and ends:
//   RESULT person-detect rows1=… rows2=… rows3=… (ratios to one full face look)
import path from 'node:path';
import sharp from 'sharp';
import { loadFaceEngine } from '../src/server/faces/engine';
import { detectPeople } from '../src/server/people/detector';
import { intFromEnv, percentile, runBenchmark } from './support';

const FRAME = process.env.BENCH_FRAME ?? path.resolve(import.meta.dirname, '../../shared/faces-calibration/bbt1.jpg');
const RUNS = intFromEnv('BENCH_RUNS', 5);

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

runBenchmark(async () => {
  const { data, info } = await sharp(FRAME).removeAlpha().toColourspace('srgb').resize(1920, 1080, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const frame = { data: new Uint8Array(data), width: info.width, height: info.height };
  const engine = await loadFaceEngine();
  const faceMs = await median(() => engine.detectFast(frame, [1], 0.5));
  console.log(`face full look: ${faceMs.toFixed(0)} ms (${path.basename(FRAME)}, 1920 × 1080)`);
  const ratios: string[] = [];
  for (const rows of [1, 2, 3]) {
    const settings = { rows, lowScore: 0.25, minHeightPx: 16 };
    const peopleMs = await median(() => detectPeople(frame, settings));
    const found = await detectPeople(frame, settings);
    console.log(`people, ${rows} row(s): ${peopleMs.toFixed(0)} ms, ${(peopleMs / faceMs).toFixed(2)} × a face look; ${found.filter((p) => p.score >= 0.4).length} people scoring ≥ 0.4, ${found.length} ≥ 0.25`);
    ratios.push(`rows${rows}=${(peopleMs / faceMs).toFixed(2)}`);
  }
  console.log(`RESULT person-detect ${ratios.join(' ')}`);
});
