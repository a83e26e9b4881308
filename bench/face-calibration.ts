// Calibration: how far apart face-api's descriptors put two different photos of the same person,
// and photos of two different people, on the real photos of ../shared/faces-calibration (see
// bench/calibration-set.ts). Every face goes through the product's photo check (the face threads'
// analyze-photo: SSD detector, landmarks, alignment, the mean descriptor of the face and its mirror).
// Prints the distributions for portrait pairs and for group-photo faces against portraits, then
// the identification view matching uses: each person's headshot (photo 1) as the only reference,
// every other face of theirs against it, and how much closer it is than the nearest other
// person's headshot (the margin). The figures are written in docs/decisions/0016.
//
//   npx tsx bench/face-calibration.ts
import { faceDistance } from '../src/server/faces/engine';
import { createFacePool } from '../src/server/faces/pool';
import { CALIBRATED_PEOPLE, calibrationPhotos, labelledFace, photoFaces, stored, type CalibrationPhoto } from './calibration-set';
import { percentile, runBenchmark } from './support';

function summary(values: number[]): string {
  const q = (p: number) => percentile(values, p).toFixed(3);
  return `n=${String(values.length).padStart(3)}  min ${q(0)}  p1 ${q(1)}  p5 ${q(5)}  p10 ${q(10)}  p50 ${q(50)}  p90 ${q(90)}  p95 ${q(95)}  p99 ${q(99)}  max ${q(100)}`;
}

async function main() {
  const pool = createFacePool();
  try {
    const photos = calibrationPhotos();
    const described: Array<CalibrationPhoto & { d: Float32Array }> = [];
    for (const photo of photos) {
      const face = labelledFace(await photoFaces(pool, photo.file), photo);
      if (!face) console.log(`no face found on ${photo.name}`);
      else described.push({ ...photo, d: stored(face) });
    }
    console.log(`face-calibration: ${described.length} of ${photos.length} labelled faces described (${CALIBRATED_PEOPLE.length} people)`);
    const pairs = { portraitSame: [] as number[], portraitOther: [] as number[], groupSame: [] as number[], groupOther: [] as number[] };
    for (let i = 0; i < described.length; i++) {
      for (let j = i + 1; j < described.length; j++) {
        const a = described[i]!;
        const b = described[j]!;
        if (a.group && b.group && a.file === b.file) continue; // two faces of one photo: not a question matching asks
        const d = faceDistance(a.d, b.d);
        const same = a.person === b.person;
        if (!a.group && !b.group) (same ? pairs.portraitSame : pairs.portraitOther).push(d);
        else (same ? pairs.groupSame : pairs.groupOther).push(d);
      }
    }
    console.log('\ndistance between two photos');
    console.log(`  portraits, same person      ${summary(pairs.portraitSame)}`);
    console.log(`  portraits, other people     ${summary(pairs.portraitOther)}`);
    console.log(`  with a group face, same     ${summary(pairs.groupSame)}`);
    console.log(`  with a group face, other    ${summary(pairs.groupOther)}`);

    // Identification: the headshot (photo 1) is the only reference of each person.
    const headshots = new Map(described.filter((p) => p.name === `${p.person}1`).map((p) => [p.person, p.d]));
    const own: number[] = [];
    const nearestOther: number[] = [];
    const margins: number[] = [];
    let closerToOther = 0;
    for (const face of described) {
      if (face.name === `${face.person}1`) continue;
      const mine = faceDistance(face.d, headshots.get(face.person)!);
      const other = Math.min(...[...headshots].filter(([p]) => p !== face.person).map(([, d]) => faceDistance(face.d, d)));
      own.push(mine);
      nearestOther.push(other);
      margins.push(other - mine);
      if (other <= mine) closerToOther++;
    }
    console.log('\none headshot as the reference');
    console.log(`  to the own headshot         ${summary(own)}`);
    console.log(`  to the nearest other one    ${summary(nearestOther)}`);
    console.log(`  margin (other - own)        ${summary(margins)}`);
    console.log(`  closer to someone else's headshot: ${closerToOther} of ${own.length}`);
    const diff = [...pairs.portraitOther, ...pairs.groupOther];
    const same = [...pairs.portraitSame, ...pairs.groupSame];
    for (const t of [0.5, 0.55, 0.58, 0.6]) {
      console.log(`  threshold ${t.toFixed(2)}: same-person pairs under it ${(same.filter((d) => d < t).length / same.length).toFixed(3)}, other-people pairs under it ${(diff.filter((d) => d < t).length / diff.length).toFixed(4)}`);
    }
    console.log(`RESULT face-calibration same_p50=${percentile(same, 50).toFixed(3)} same_p95=${percentile(same, 95).toFixed(3)} other_p1=${percentile(diff, 1).toFixed(3)} other_min=${percentile(diff, 0).toFixed(3)}`);
  } finally {
    await pool.close();
  }
}

runBenchmark(main);
