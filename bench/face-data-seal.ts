// Benchmark: what sealing face data at rest costs (decision 0017). Matching reads every face track
// of a request's games: it times reading N tracks' descriptors (3 a track) as stored in the clear
// before, and sealed with AES-256-GCM now, interleaved, and prints the ratio; also sealing them as
// the index does when it stores a file's tracks.
//
//   npx tsx bench/face-data-seal.ts          (BENCH_TRACKS, default 20000: about 10 camera-hours)
import { randomBytes } from 'node:crypto';
import { decodeEmbeddings, encodeEmbeddings } from '../src/server/faces/embeddings';
import { installFaceDataKey } from '../src/server/faces/face-data-seal';
import { intFromEnv, percentile, runBenchmark } from './support';

const TRACKS = intFromEnv('BENCH_TRACKS', 20000);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 15);

async function main() {
  installFaceDataKey(randomBytes(32));
  const descriptors = Array.from({ length: TRACKS }, () => Array.from({ length: 3 }, () => Array.from({ length: 128 }, () => Math.random() - 0.5)));
  const plain = descriptors.map((d) => {
    const out = new Float32Array(d.length * 128);
    d.forEach((v, i) => out.set(v, i * 128));
    return Buffer.from(out.buffer);
  });
  let sealed: Buffer[] = [];
  const sealMs: number[] = [];
  const clearMs: number[] = [];
  const openMs: number[] = [];
  let check = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    sealed = descriptors.map((d) => encodeEmbeddings(d));
    sealMs.push(performance.now() - t);
    // Both reads go through decodeEmbeddings: stored in the clear (as before) and sealed.
    t = performance.now();
    for (const b of plain) check += decodeEmbeddings(b).length;
    clearMs.push(performance.now() - t);
    t = performance.now();
    for (const b of sealed) check += decodeEmbeddings(b).length;
    openMs.push(performance.now() - t);
  }
  if (check !== ROUNDS * TRACKS * 6) throw new Error('decoded the wrong number of descriptors');
  const med = (v: number[]) => percentile(v, 50);
  console.log(`face-data-seal: ${TRACKS} tracks of 3 descriptors, ${ROUNDS} rounds (medians)`);
  console.log(`  read in the clear ${med(clearMs).toFixed(1)} ms, read sealed ${med(openMs).toFixed(1)} ms, seal ${med(sealMs).toFixed(1)} ms`);
  console.log(`  per track: open ${((med(openMs) - med(clearMs)) * 1000 / TRACKS).toFixed(1)} µs more; stored size ${plain[0]!.length} → ${sealed[0]!.length} bytes`);
  console.log(`RESULT face-data-seal read_ratio=${(med(openMs) / med(clearMs)).toFixed(2)}x extra_per_track_us=${(((med(openMs) - med(clearMs)) * 1000) / TRACKS).toFixed(1)}`);
}

runBenchmark(main);
