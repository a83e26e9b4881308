// Benchmark: how well the product finds a player in REAL game footage by their team's kit and the
// number on their shirt (issue 35), where faces are a few pixels and mostly turned away.
//
// Footage: public game clips, kept outside the repository (never committed), in BENCH_GAMES
// (default ../.cache-media/games beside the project). Each clip's source and licence:
//   soccer_rma_sev_laliga.mp4       La Liga broadcast, Real Madrid v Sevilla; github.com/zakerytclarke/sports_analysis
//                                   soccer.mp4 @ b9e5113 (repository MIT; the footage is the league's broadcast)
//   soccer_liv_bha_epl.mp4          Premier League broadcast, Liverpool v Brighton; github.com/arpn0z/YOLOv9-object-tracking
//                                   football.mp4 @ 4f74047 (repository GPL-3.0; the footage is the league's broadcast)
//   soccer_int_nap_seriea.mp4       Serie A wide camera, Inter v Napoli; github.com/lorenzoridolfi9/Football-Player-Detection
//                                   match.mp4 @ bfa439e (no licence file; the footage is the league's broadcast)
//   basketball_gsw_lal_nba.mp4      NBA preseason sideline camera, Warriors v Lakers; github.com/WuPedin/Multi-class_Yolov5_DeepSort_Pytorch
//                                   nba.mp4 @ 507e0ce (no licence file; the footage is the league's broadcast)
//   basketball_rich_duke_ncaaw.mp4  NCAA women's sideline camera, Richmond v Duke; github.com/Duke-Basketball-Analytics/BasketTracking
//                                   resources/debugging_videos/OFFENSE-40_richmond.mov @ 2e43199 (repository MIT; ESPN's broadcast)
// The clips are used as they are, re-encoded to H.264 only; they are benchmark input, not product data.
//
// Ground truth (bench/person-accuracy/*.json, labelled by us by eye, frame by frame): for each
// clip, its two teams with the kit colour measured on a shirt, and for chosen players (team,
// number, whether their face is ever over 30 px at 1080p) the centre of their torso at every
// sample the index takes (one every 0.5 s), or null where they are not in the picture; samples
// where the labeller could not tell are left out.
//
// Each clip is made into a 1080p camera file (scaled to fit, padded), indexed with the product's
// indexer (face threads, default settings, people on), and each labelled player is matched with
// the product's proposeAppearances as a family that declined face matching: by the team and the
// number their request names, against the event's two kits (no reference photo exists for these
// players, so no face is compared). Scored per sample:
// - recall: samples where the player is in the picture that a proposed clip covers (all players,
//   and players whose face is never over 30 px);
// - precision: samples a proposed clip covers where the player is in the picture;
// - sure share: of the samples found, those a sure clip covers; sure precision: of the samples sure
//   clips cover, those where the player is in the picture;
// - number_read: of the person tracks that are a labelled player (the player's torso inside the
//   track's box at most of its labelled samples, at least 2), the share whose number was read as
//   theirs (a track with no number read counts as not read; a wrong number is counted apart).
// And where the pipeline loses the player: detected (samples where a person box holds the
// player's torso), the share of those in the player's longest track, and "one click": recall
// and precision once the admin points at each player once in "Who's who" (the first sample where
// a box holds them; the label goes to that track, the pieces that continue it in its shot and
// the tracks its evidence links to, as the route does), the way competing products have analysts tag players;
// by time (as recall above) and by box: the share of the samples where a person box holds the player
// that a labelled track's box holds them, and the share of the labelled tracks' boxes that are the player.
// The clips are split in two: TUNE (one soccer and one basketball clip) is the only part any rule
// or threshold may be tried on; REPORT (the other three) gives the figures that count, the RESULT
// line among them. Both are printed.
//
//   npx tsx bench/person-accuracy.ts
//
// Options (environment): BENCH_GAMES=dir, BENCH_CACHE=dir keeps each clip's index (a second run
// only matches), BENCH_DEBUG=1 prints every clip proposed and every person track of a player, BENCH_CLIPS=a,b only
// those clips (file names).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../src/server/config';
import { indexSettings } from '../src/server/faces/index-settings';
import { keyframesSuffice } from '../src/server/faces/indexing';
import { proposeAppearances, type IndexedFile, type IndexedPerson, type IndexedTrack, type ProposedAppearance } from '../src/server/faces/matching';
import { continuationsOf } from '../src/server/people/continuations';
import { linkedByEvidence } from '../src/server/people/labels';
import type { StoredBox } from '../src/server/people/track-boxes';
import { hexToLab, kitsAsSeenByFile, teamOfKit } from '../src/server/people/kit';
import { createFacePool } from '../src/server/faces/pool';
import type { SegmentResult } from '../src/server/faces/types';
import { probeVideo } from '../src/server/media/ffmpeg';
import { runBenchmark } from './support';

const run = promisify(execFile);
const LABELS = path.join(import.meta.dirname, 'person-accuracy');
const GAMES = process.env.BENCH_GAMES ?? path.resolve(import.meta.dirname, '../../.cache-media/games');
const CACHE = process.env.BENCH_CACHE;
const DEBUG = Boolean(process.env.BENCH_DEBUG);
const ONLY = process.env.BENCH_CLIPS?.split(',');
const WIDTH = 1920;
const HEIGHT = 1080;
const SAMPLE_S = 0.5;
const TUNE = new Set(['soccer_rma_sev_laliga.mp4', 'basketball_gsw_lal_nba.mp4']);

interface Labels {
  clip: string;
  width: number;
  height: number;
  samples: number;
  teams: Array<{ name: string; kit: string }>;
  athletes: Array<{ team: string; number: number; faceOver30px: boolean; at: Array<[number, number] | null>; uncertain?: number[] }>;
}

interface Tally {
  visible: number;
  found: number;
  foundSure: number;
  covered: number;
  coveredRight: number;
  sureCovered: number;
  sureRight: number;
}
const emptyTally = (): Tally => ({ visible: 0, found: 0, foundSure: 0, covered: 0, coveredRight: 0, sureCovered: 0, sureRight: 0 });
const half = () => ({ kitRight: 0, kitWrong: 0, kitRightGiven: 0, kitWrongGiven: 0, all: emptyTally(), noFace: emptyTally(), playerTracks: 0, readRight: 0, readWrong: 0, detected: 0, visibleLabelled: 0, longest: 0, oneClick: emptyTally(), followed: 0, followedBoxes: 0, followedRight: 0 });

const inBox = ([px, py]: readonly [number, number], [x, y, w, h]: [number, number, number, number]) => px >= x && px <= x + w && py >= y && py <= y + h;

/** The proposals scored at every labelled sample of one player. */
function score(proposals: ProposedAppearance[], at: Labels['athletes'][number]['at'], uncertain: Set<number>): Tally {
  const tally = emptyTally();
  at.forEach((point, k) => {
    if (uncertain.has(k)) return;
    const t = k * SAMPLE_S;
    // A clip shows [startS, endS): the frame at its end (the next shot's first, where a clip ends at a cut) is not in it.
    const over = proposals.filter((p) => p.startS <= t + 1e-6 && t < p.endS - 1e-6);
    const sure = over.some((p) => !p.unsure);
    if (point) {
      tally.visible++;
      if (over.length) tally.found++;
      if (sure) tally.foundSure++;
    }
    if (over.length) {
      tally.covered++;
      if (point) tally.coveredRight++;
    }
    if (sure) {
      tally.sureCovered++;
      if (point) tally.sureRight++;
    }
  });
  return tally;
}
const add = (a: Tally, b: Tally) => (Object.keys(a) as Array<keyof Tally>).forEach((k) => (a[k] += b[k]));

/**
 * The clip made into a 1080p camera file: scaled to fit, padded, a keyframe every sample. The
 * labelled frames are those ffmpeg's `fps=2` filter gives: sample k is the last frame before
 * k × 0.5 + 0.25 s, about a quarter of a second after k × 0.5 s. The camera file starts at the
 * first of them, so the index's sample k (the first frame at or after k × 0.5 s) is the labelled
 * frame, to a frame.
 */
async function cameraFile(source: string, out: string) {
  const { fps } = await probeVideo(source);
  const rate = fps ?? 25;
  const start = Math.floor((SAMPLE_S / 2) * rate - 1e-6) / rate;
  const vf = `scale=${WIDTH}:${HEIGHT}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${WIDTH}:${HEIGHT}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  await run('ffmpeg', ['-v', 'error', '-y', '-ss', start.toFixed(4), '-i', source, '-vf', vf, '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-force_key_frames', `expr:gte(t,n_forced*${SAMPLE_S})`, '-pix_fmt', 'yuv420p', out]);
}

/** Where a labelled point (a share of the clip's frame) lies in the camera file's frame. */
function placeOf(labels: Labels) {
  const scale = Math.min(WIDTH / labels.width, HEIGHT / labels.height);
  const w = Math.round((labels.width * scale) / 2) * 2;
  const h = Math.round((labels.height * scale) / 2) * 2;
  const [left, top] = [(WIDTH - w) / 2, (HEIGHT - h) / 2];
  return ([x, y]: [number, number]) => [left + x * w, top + y * h] as const;
}

async function main() {
  const files = fs.existsSync(LABELS) ? fs.readdirSync(LABELS).filter((f) => f.endsWith('.json')).sort() : [];
  const clips = files.map((f) => JSON.parse(fs.readFileSync(path.join(LABELS, f), 'utf8')) as Labels).filter((l) => fs.existsSync(path.join(GAMES, l.clip)) && (!ONLY || ONLY.includes(l.clip)));
  if (!clips.length) throw new Error(`no labelled clip found in ${GAMES}: fetch the clips named at the top of this file there`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-bench-person-'));
  if (CACHE) fs.mkdirSync(CACHE, { recursive: true });
  const config = loadConfig({ dataDir: work, authSecret: 'bench' });
  const settings = indexSettings(config);
  const pool = createFacePool(config.faces.workers);
  const halves = { tune: half(), report: half() };
  const table: string[] = [];
  try {
    console.log(`person-accuracy: ${clips.length} real game clips, ${clips.reduce((n, c) => n + c.athletes.length, 0)} labelled players, 1080p camera files, people detected on ${settings.people?.rows ?? 0} rows of regions`);
    for (const labels of clips) {
      const tallies = halves[TUNE.has(labels.clip) ? 'tune' : 'report'];
      const duration = (labels.samples - 1) * SAMPLE_S;
      const cached = CACHE && path.join(CACHE, `${labels.clip}.json`);
      let result: SegmentResult;
      if (cached && fs.existsSync(cached)) result = JSON.parse(fs.readFileSync(cached, 'utf8')) as SegmentResult;
      else {
        const file = path.join(work, labels.clip);
        await cameraFile(path.join(GAMES, labels.clip), file);
        const probe = await probeVideo(file);
        const keyframesOnly = await keyframesSuffice(file, settings.sampleFps, probe.fps);
        const started = performance.now();
        result = await pool.run<SegmentResult>({ op: 'index-segment', segment: { file, startS: 0, endS: probe.durationSeconds + 1, width: WIDTH, height: HEIGHT, keyframesOnly }, settings });
        console.log(`  ${labels.clip}: indexed in ${((performance.now() - started) / 1000).toFixed(1)} s, ${result.people.length} person tracks, ${result.tracks.length} face tracks, shot cuts at ${JSON.stringify(result.shotCuts)}`);
        fs.rmSync(file, { force: true });
        if (cached) fs.writeFileSync(cached, JSON.stringify({ ...result, tracks: result.tracks.map((t) => ({ ...t, thumbnail: null })) }));
      }
      const footageId = labels.clip;
      const indexedFiles: IndexedFile[] = [{ id: footageId, gameId: 'game', camera: 'Camera 1', duration: duration + SAMPLE_S, shotCuts: result.shotCuts }];
      const tracks: IndexedTrack[] = result.tracks.map((t, j) => ({ id: `f${j}`, footageId, startS: t.startS, endS: t.endS, samples: t.faces.length, faceHeight: t.faceHeight, quality: t.best.quality, embeddings: t.descriptors.map((d) => Float32Array.from(d)), jerseyNumber: t.jerseyNumber }));
      const people: IndexedPerson[] = result.people.map((p, i) => ({ id: `p${i}`, footageId, startS: p.startS, endS: p.endS, samples: p.boxes.length, faceTrackIds: p.faceTracks.map((j) => `f${j}`), kit: p.kit, jerseyNumber: p.jerseyNumber }));
      const teams = labels.teams.map((t) => ({ teamId: t.name, colours: [t.kit] }));
      const place = placeOf(labels);
      const teamsSeen = kitsAsSeenByFile(people, teams)(footageId);
      if (DEBUG) console.log(`DBG ${labels.clip} teams as seen: ${JSON.stringify(teamsSeen)}`);

      for (const athlete of labels.athletes) {
        const weigh = { people, athlete: { teamId: athlete.team, number: athlete.number }, teams };
        const proposals = proposeAppearances(tracks, indexedFiles, [], [], athlete.number, weigh);
        const uncertain = new Set(athlete.uncertain ?? []);
        const tally = score(proposals, athlete.at, uncertain);
        add(tallies.all, tally);
        if (!athlete.faceOver30px) add(tallies.noFace, tally);

        // Samples where a person box of the index holds the player's torso: what tracking and evidence had to work with.
        const boxesAt = new Map<number, number[][]>();
        for (const person of result.people) for (const b of person.boxes) boxesAt.set(Math.round(b[0]! / SAMPLE_S), [...(boxesAt.get(Math.round(b[0]! / SAMPLE_S)) ?? []), b]);
        let detected = 0;
        athlete.at.forEach((point, k) => {
          if (!point || uncertain.has(k)) return;
          const [px, py] = place(point);
          if ((boxesAt.get(k) ?? []).some(([, x, y, w, h]) => px >= x! && px <= x! + w! && py >= y! && py <= y! + h!)) detected++;
        });
        tallies.visibleLabelled += tally.visible;
        tallies.detected += detected;

        // The person tracks that are this player: their torso inside the box at most labelled samples.
        let own = 0;
        let right = 0;
        let wrong = 0;
        let longest = 0;
        result.people.forEach((person, i) => {
          let inside = 0;
          let labelled = 0;
          for (const [t, x, y, w, h] of person.boxes as Array<[number, number, number, number, number]>) {
            const k = Math.round(t / SAMPLE_S);
            if (Math.abs(k * SAMPLE_S - t) > 0.2 || uncertain.has(k) || k >= athlete.at.length) continue;
            const point = athlete.at[k];
            if (!point) continue;
            labelled++;
            const [px, py] = place(point);
            if (px >= x && px <= x + w && py >= y && py <= y + h) inside++;
          }
          longest = Math.max(longest, inside);
          if (inside < 2 || inside * 2 < person.boxes.length) return;
          own++;
          if (person.kit) {
            // The team its kit names: against the colours given, and as matching names it (the colours as this camera shows them).
            const given = teamOfKit(hexToLab(person.kit), teams)?.teamId;
            const seen = teamOfKit(hexToLab(person.kit), teamsSeen)?.teamId;
            if (given) tallies[given === athlete.team ? 'kitRightGiven' : 'kitWrongGiven']++;
            if (seen) tallies[seen === athlete.team ? 'kitRight' : 'kitWrong']++;
          }
          if (person.jerseyNumber === athlete.number) right++;
          else if (person.jerseyNumber !== null) wrong++;
          if (DEBUG) console.log(`DBG ${labels.clip} ${athlete.team} #${athlete.number}: track p${i} ${person.startS}-${person.endS} kit=${person.kit} number=${person.jerseyNumber} reads=${person.numberReads} [${(person as unknown as { readsDbg?: string }).readsDbg}] inside=${inside}/${labelled}`);
        });
        tallies.longest += longest;
        // One click: the admin points at the player where a person box first holds them ("Who's
        // who"); the label goes to that track and every track its evidence links to, as the route does.
        const first = athlete.at.findIndex((point, k) => point && !uncertain.has(k) && result.people.some((p) => p.boxes.some(([t, x, y, w, h]) => Math.round(t! / SAMPLE_S) === k && inBox(place(point), [x!, y!, w!, h!]))));
        if (first >= 0) {
          const pointed = result.people.findIndex((p) => p.boxes.some(([t, x, y, w, h]) => Math.round(t! / SAMPLE_S) === first && inBox(place(athlete.at[first]!), [x!, y!, w!, h!])));
          const row = (p: IndexedPerson) => ({ faceTrackIds: p.faceTrackIds, jerseyNumber: p.jerseyNumber, kitColour: p.kit });
          const labelled = new Set(people.filter((p, i) => i === pointed || linkedByEvidence(row(people[pointed]!), row(p), teamsSeen)).map((p) => p.id));
          const pieces = result.people.map((p, i) => ({ id: `p${i}`, footageId, boxes: p.boxes as StoredBox[], kitColour: p.kit }));
          for (const id of continuationsOf(pieces[pointed]!, pieces, result.shotCuts)) labelled.add(id);
          // Followed by box: the labelled tracks' boxes that hold the player, of the samples the player was detected, and of all their boxes.
          const at = (k: number) => (athlete.at[k] && !uncertain.has(k) ? place(athlete.at[k]!) : null);
          const held = new Set<number>();
          for (const id of labelled) {
            for (const [t, x, y, w, h] of result.people[Number(id.slice(1))]!.boxes as Array<[number, number, number, number, number]>) {
              const k = Math.round(t / SAMPLE_S);
              if (uncertain.has(k) || k >= athlete.at.length) continue;
              tallies.followedBoxes++;
              const point = at(k);
              if (point && inBox(point, [x, y, w, h])) {
                tallies.followedRight++;
                held.add(k);
              }
            }
          }
          tallies.followed += held.size;
          if (DEBUG) console.log(`DBG ${labels.clip} ${athlete.team} #${athlete.number}: pointed at p${pointed}, labelled ${[...labelled].join(',')}, holding the player at ${held.size} samples`);
          add(tallies.oneClick, score(proposeAppearances(tracks, indexedFiles, [], [], athlete.number, { ...weigh, labels: { athlete: labelled, not: new Set() } }), athlete.at, uncertain));
        } else add(tallies.oneClick, score([], athlete.at, uncertain));
        tallies.playerTracks += own;
        tallies.readRight += right;
        tallies.readWrong += wrong;
        if (DEBUG) for (const p of proposals) console.log(`DBG ${labels.clip} ${athlete.team} #${athlete.number}: clip ${p.startS}-${p.endS} ${p.unsure ? 'unsure' : 'sure'} ${p.reason}`);
        const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
        table.push(
          `${TUNE.has(labels.clip) ? 'tune  ' : 'report'} | ${labels.clip.padEnd(32)} | ${`${athlete.team} #${athlete.number}`.padEnd(20)} | ${athlete.faceOver30px ? 'yes' : ' no'}  | ${String(tally.visible).padStart(7)} | ${ratio(detected, tally.visible).padStart(8)} | ${ratio(tally.found, tally.visible).padStart(6)} | ${ratio(tally.coveredRight, tally.covered).padStart(9)} | ${String(proposals.length).padStart(5)} | ${String(proposals.filter((p) => !p.unsure).length).padStart(4)} | ${own} (${right} right, ${wrong} wrong)`,
        );
      }
    }
    const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
    console.log('\nhalf   | clip                             | player               | face>30 | samples | detected | recall | precision | clips | sure | its tracks (number read)');
    for (const line of table) console.log(line);
    for (const [name, t] of Object.entries(halves)) {
      console.log(`\n${name}: all players:        recall ${ratio(t.all.found, t.all.visible)} (sure ${ratio(t.all.foundSure, t.all.visible)}), precision ${ratio(t.all.coveredRight, t.all.covered)}, sure precision ${ratio(t.all.sureRight, t.all.sureCovered)}, over ${t.all.visible} samples in the picture`);
      console.log(`${name}: no face over 30 px: recall ${ratio(t.noFace.found, t.noFace.visible)}, precision ${ratio(t.noFace.coveredRight, t.noFace.covered)}, over ${t.noFace.visible} samples`);
      console.log(`${name}: detected (a person box holds the player): ${ratio(t.detected, t.visibleLabelled)}; of those samples, in the player's longest track: ${ratio(t.longest, t.detected)}`);
      console.log(`${name}: one click (the admin points at each player once): recall ${ratio(t.oneClick.found, t.oneClick.visible)}, precision ${ratio(t.oneClick.coveredRight, t.oneClick.covered)}; by box, the labelled tracks hold the player at ${ratio(t.followed, t.detected)} of the samples a box did, and ${ratio(t.followedRight, t.followedBoxes)} of their boxes are the player`);
      console.log(`${name}: kit: of the ${t.playerTracks} player tracks, the kit named the player's team on ${t.kitRight} (wrong team ${t.kitWrong}) with the colours as each camera shows them, ${t.kitRightGiven} (wrong ${t.kitWrongGiven}) with the colours given alone`);
      console.log(`${name}: numbers: ${t.playerTracks} person tracks are labelled players; ${t.readRight} read right, ${t.readWrong} read wrong, ${t.playerTracks - t.readRight - t.readWrong} not read`);
    }
    const r = halves.report;
    console.log('\nGoal: recall ≥ 0.8 and ≥ 0.7 without a face, precision ≥ 0.9, sure precision ≥ 0.98 (REPORT half).');
    console.log(
      `RESULT person-accuracy recall=${ratio(r.all.found, r.all.visible)} recall_noface=${ratio(r.noFace.found, r.noFace.visible)} precision=${ratio(r.all.coveredRight, r.all.covered)} sure_share=${ratio(r.all.foundSure, r.all.found)} sure_precision=${ratio(r.all.sureRight, r.all.sureCovered)} number_read=${ratio(r.readRight, r.playerTracks)}`,
    );
  } finally {
    await pool.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBenchmark(main);
