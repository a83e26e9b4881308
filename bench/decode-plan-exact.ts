// The index's decode against a plain decode of the whole file, sample for sample, on camera files
// from outside the project (issue 32, docs/decisions/0042): real clips, kept outside the repository
// (never committed), in BENCH_GAMES (default ../.cache-media/games beside the project; every .mp4,
// .m4v, .3gp, .mov, .mkv and .webm there). Each file is cut into stretches as the index job cuts it (two
// halves) and at other places (a stretch from 1.5 s, from 3 s, one of the whole file); each
// stretch's samples must be the very frames the plain decode gives at those times, with the plan
// held (no fallback to decoding the stretch whole). Measured at 320 px wide: the pixels compared
// are the decoded frames scaled the same way for both.
//
// Run: npx tsx bench/decode-plan-exact.ts   Ends: RESULT decode-plan-exact files=… samples=… wrong=… fallbacks=…
import fs from 'node:fs';
import path from 'node:path';
import { frames } from '../src/server/faces/index-segment';
import type { Segment } from '../src/server/faces/types';
import { probeVideo } from '../src/server/media/ffmpeg';
import { runBenchmark } from './support';

const SAMPLE_FPS = 2;
const GAMES = process.env.BENCH_GAMES ?? path.resolve(import.meta.dirname, '../../.cache-media/games');

async function samples(segment: Segment, fallbacks: string[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const frame of frames(segment, SAMPLE_FPS, { onFallback: (reason) => fallbacks.push(reason) })) out.push(Buffer.from(frame.data));
  return out;
}

runBenchmark(async () => {
  const files = fs.existsSync(GAMES) ? fs.readdirSync(GAMES).filter((f) => /\.(mp4|m4v|3gp|mov|mkv|webm)$/i.test(f)).sort() : [];
  if (!files.length) throw new Error(`no camera files in ${GAMES} (set BENCH_GAMES)`);
  let total = 0;
  let wrong = 0;
  let fallbacks = 0;
  for (const name of files) {
    const file = path.join(GAMES, name);
    const probe = await probeVideo(file);
    const width = 320;
    const height = Math.round((probe.height * width) / probe.width / 2) * 2;
    const base = { file, width, height };
    const duration = probe.durationSeconds;
    // The truth: every frame decoded from the file's start, the last at or before each sample.
    const truth = await samples({ ...base, startS: 0, endS: duration + 1, everyFrame: true }, []);
    const half = Math.floor(duration) / 2;
    const stretches: Array<[number, number]> = [[0, half], [half, duration + 1], [1.5, Math.min(duration + 1, 6)], [3, Math.min(duration + 1, 7.5)], [0, duration + 1]];
    for (const [startS, endS] of stretches) {
      if (endS <= startS) continue;
      const reasons: string[] = [];
      const got = await samples({ ...base, startS, endS }, reasons);
      const first = Math.round(startS * SAMPLE_FPS);
      const expected = truth.slice(first, first + Math.ceil((endS - startS) * SAMPLE_FPS - 1e-9));
      const bad = expected.map((frame, i) => (got[i]?.equals(frame) ? -1 : i)).filter((i) => i >= 0);
      const extra = Math.max(0, got.length - expected.length);
      total += expected.length;
      wrong += bad.length + extra;
      fallbacks += reasons.length;
      console.log(`${name} [${startS.toFixed(1)}, ${endS.toFixed(1)}): ${expected.length} samples, ${bad.length} wrong or missing${extra ? `, ${extra} extra` : ''}${reasons.length ? `, fell back: ${reasons.join('; ')}` : ''}`);
    }
  }
  console.log(`RESULT decode-plan-exact files=${files.length} samples=${total} wrong=${wrong} fallbacks=${fallbacks}`);
});
