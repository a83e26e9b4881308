// Evidence "kit": the colour of a person's shirt, gathered along their track, and which of an
// event's teams it is. Colours are compared in CIELAB, where a distance is about what the eye
// sees; lightness counts half, because a gym's lights and shadows change it more than the hue.
import type { RgbFrame } from '../vision/frames';
import { partOf, type Box } from '../vision/boxes';

export type Lab = [number, number, number];

/**
 * A box less than this many times as tall as wide holds the upper body only (a close camera, a
 * seated or bending player): its shirt is lower in the box than a standing player's.
 */
const WHOLE_BODY_ASPECT = 1.6;

/** Where the shirt lies down a person's box, as shares of its height: [top, bottom]. */
export function shirtBand(box: Box, standing: [number, number], upper: [number, number]): [number, number] {
  return box.h >= box.w * WHOLE_BODY_ASPECT ? standing : upper;
}

/** The rows of a person's box the shirt's middle lies in, as shares of its height. */
const torsoBand = (box: Box) => shirtBand(box, [0.22, 0.45], [0.5, 0.8]);

/** The shirt's middle: clear of the arms, the head and the shorts in a loose detector box. */
export function torsoRegion(box: Box, frame: { width: number; height: number }): Box | null {
  const [top, bottom] = torsoBand(box);
  return partOf(box, frame, { left: 0.3, right: 0.7, top, bottom }, 3);
}

const toLinear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const fromLinear = (v: number) => Math.round(255 * Math.min(1, Math.max(0, v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055)));
const WHITE = [0.95047, 1, 1.08883] as const;
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
const fInverse = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : (116 * t - 16) / (24389 / 27));

export function rgbToLab(r: number, g: number, b: number): Lab {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / WHITE[0];
  const y = (0.2126 * lr + 0.7152 * lg + 0.0722 * lb) / WHITE[1];
  const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / WHITE[2];
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

export function labToHex([l, a, b]: Lab): string {
  const fy = (l + 16) / 116;
  const [x, y, z] = [fInverse(fy + a / 500) * WHITE[0], fInverse(fy) * WHITE[1], fInverse(fy - b / 200) * WHITE[2]];
  const rgb = [3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z, 0.0557 * x - 0.204 * y + 1.057 * z].map(fromLinear);
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export function hexToLab(hex: string): Lab {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgbToLab((n >> 16) & 255, (n >> 8) & 255, n & 255);
}

/** Colour distance with lightness at half weight. */
export function kitDistance(p: Lab, q: Lab): number {
  return Math.hypot((p[0] - q[0]) / 2, p[1] - q[1], p[2] - q[2]);
}

/** Pixels of the torso looked at, at most (evenly spread). */
const MAX_PIXELS = 400;

/**
 * The shirt's colour in one sample, in a region of it (people/kit.ts torsoRegion, or the chest
 * under a face): the larger of two colour groups of its pixels (the other is the number, a
 * stripe, skin or the floor behind a loose box).
 */
export function shirtColour(frame: RgbFrame, region: Box, ground: Lab | null = null): Lab {
  const pixels = pixelsOf(frame, region, MAX_PIXELS);
  // A far player's shirt region is half pitch or floor: what is the ground's colour is left out, unless the shirt is that colour too.
  const cloth = ground ? pixels.filter((p) => kitDistance(p, ground) > GROUND_NEAR) : pixels;
  return largestGroup(cloth.length >= pixels.length * CLOTH_LEAST ? cloth : pixels);
}

/** Up to `most` pixels of a region, evenly spread, in CIELAB. */
function pixelsOf(frame: RgbFrame, region: Box, most: number): Lab[] {
  const step = Math.max(1, Math.sqrt((region.w * region.h) / most));
  const pixels: Lab[] = [];
  for (let y = region.y; y < region.y + region.h; y += step) {
    for (let x = region.x; x < region.x + region.w; x += step) {
      const o = (Math.floor(y) * frame.width + Math.floor(x)) * 3;
      pixels.push(rgbToLab(frame.data[o]!, frame.data[o + 1]!, frame.data[o + 2]!));
    }
  }
  return pixels;
}

/** A pixel this near the ground's colour is taken for ground; the cloth left must be at least CLOTH_LEAST of the region. */
const GROUND_NEAR = 12;
const CLOTH_LEAST = 0.3;

/**
 * The ground beside a person at their shirt's height (the pitch, the floor, the stand behind):
 * the median colour of strips a third of the box wide to its left and right.
 */
export function groundBeside(frame: RgbFrame, box: Box): Lab | null {
  const [top, bottom] = torsoBand(box);
  const strips = [partOf(box, frame, { left: -0.35, right: -0.05, top, bottom }, 2), partOf(box, frame, { left: 1.05, right: 1.35, top, bottom }, 2)];
  return kitOfTrack(strips.flatMap((strip) => (strip ? pixelsOf(frame, strip, MAX_PIXELS / 4) : [])));
}

/** Two-means clustering (a few rounds from the two most different pixels); the larger group's mean. */
function largestGroup(pixels: Lab[]): Lab {
  const mean = (list: Lab[]): Lab => {
    const sum = list.reduce<Lab>((s, p) => [s[0] + p[0], s[1] + p[1], s[2] + p[2]], [0, 0, 0]);
    return [sum[0] / list.length, sum[1] / list.length, sum[2] / list.length];
  };
  const centre = mean(pixels);
  const farthest = (from: Lab) => pixels.reduce((best, p) => (kitDistance(p, from) > kitDistance(best, from) ? p : best), pixels[0]!);
  let a = farthest(centre);
  let b = farthest(a);
  let sizes = [0, 0];
  for (let round = 0; round < 6; round++) {
    const groups: [Lab[], Lab[]] = [[], []];
    for (const p of pixels) groups[kitDistance(p, a) <= kitDistance(p, b) ? 0 : 1].push(p);
    if (!groups[0].length || !groups[1].length) return centre;
    [a, b] = [mean(groups[0]), mean(groups[1])];
    sizes = [groups[0].length, groups[1].length];
  }
  return sizes[0]! >= sizes[1]! ? a : b;
}

/** The middle value (the mean of the two middle ones when there is an even number). */
export function median(values: number[]): number {
  const sorted = [...values].sort((p, q) => p - q);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A track's kit: the median, channel by channel, of its samples' shirt colours (a shadow or a passing arm does not move it). */
export function kitOfTrack(samples: Lab[]): Lab | null {
  if (!samples.length) return null;
  return [median(samples.map((s) => s[0])), median(samples.map((s) => s[1])), median(samples.map((s) => s[2]))];
}

export interface TeamKits {
  teamId: string;
  /** The team's shirt colours (home, and away when it has one), as `#rrggbb`. */
  colours: string[];
}

/**
 * A kit this far from a team's colour can still be that team's shirt (another light, another
 * camera); and it names the team only when every other team is both this many times and this
 * much farther (two teams in nearly one colour are never told apart by it). Chosen on generated
 * shirts under lights ±25 % (people/kit.test.ts): to be measured on real game footage.
 */
export const KIT_MATCH_DISTANCE = 30;
export const KIT_MARGIN = 1.5;
export const KIT_MIN_GAP = 8;

/** The team whose kit this is, or null when none is near enough or two are too alike to tell. */
export function teamOfKit(kit: Lab, teams: TeamKits[]): { teamId: string; distance: number } | null {
  const ranked = teams
    .map((team) => ({ teamId: team.teamId, distance: Math.min(...team.colours.map((c) => kitDistance(kit, hexToLab(c)))) }))
    .filter((t) => Number.isFinite(t.distance))
    .sort((p, q) => p.distance - q.distance);
  const [best, next] = ranked;
  if (!best || best.distance > KIT_MATCH_DISTANCE || !clearlyNearer(best.distance, next?.distance)) return null;
  return best;
}

/** A kit this far from the nearest team's colour is that team's only when the next team's is this far or farther (KIT_MARGIN, KIT_MIN_GAP). */
function clearlyNearer(best: number, next: number | undefined): boolean {
  return next === undefined || (next >= best * KIT_MARGIN && next - best >= KIT_MIN_GAP);
}

/**
 * How far a track's kit may lie from a team's given colour and still be taken as that team's when
 * learning how a camera shows the team, and how many tracks that takes.
 */
export const SEEN_REACH = 60;
export const SEEN_MIN_TRACKS = 3;

/**
 * The teams' kits as one camera shows them. A colour typed in, or taken from the club's
 * catalogue, is seldom what a camera records: a stadium's lights, the camera's white balance and,
 * on a far player, a striped shirt's stripes blended into one colour move it (a royal-blue and
 * white striped shirt reads as a grey blue). Each track's kit that is clearly nearer one team's
 * colour than any other team's (within SEEN_REACH) is taken as that team's; where at least
 * SEEN_MIN_TRACKS are, their median is how this camera shows the colour, and it joins the team's
 * colours when it is not already within KIT_MATCH_DISTANCE of them. teamOfKit then names a shirt
 * as before, with its margins between teams: two teams the camera shows alike stay untold.
 */
export function kitsAsSeen(kits: Lab[], teams: TeamKits[]): TeamKits[] {
  const given = teams.flatMap((team, t) => team.colours.map((hex) => ({ t, lab: hexToLab(hex) })));
  const taken = given.map(() => [] as Lab[]);
  for (const kit of kits) {
    const ranked = given.map((g, i) => ({ i, t: g.t, distance: kitDistance(kit, g.lab) })).sort((p, q) => p.distance - q.distance);
    const [best] = ranked;
    if (!best || best.distance > SEEN_REACH || !clearlyNearer(best.distance, ranked.find((r) => r.t !== best.t)?.distance)) continue;
    taken[best.i]!.push(kit);
  }
  return teams.map((team, t) => {
    const seen = given.flatMap((g, i) => {
      if (g.t !== t || taken[i]!.length < SEEN_MIN_TRACKS) return [];
      const colour = kitOfTrack(taken[i]!)!;
      return kitDistance(colour, g.lab) > KIT_MATCH_DISTANCE ? [labToHex(colour)] : [];
    });
    return seen.length ? { ...team, colours: [...team.colours, ...seen] } : team;
  });
}

/** kitsAsSeen for each footage file the tracks come from, learnt from that file's tracks once. */
export function kitsAsSeenByFile(tracks: Array<{ footageId: string; kit: string | null }>, teams: TeamKits[]): (footageId: string) => TeamKits[] {
  const kitsOf = new Map<string, Lab[]>();
  for (const t of tracks) {
    if (!t.kit) continue;
    if (!kitsOf.has(t.footageId)) kitsOf.set(t.footageId, []);
    kitsOf.get(t.footageId)!.push(hexToLab(t.kit));
  }
  const learnt = new Map<string, TeamKits[]>();
  return (footageId) => {
    if (!learnt.has(footageId)) learnt.set(footageId, kitsAsSeen(kitsOf.get(footageId) ?? [], teams));
    return learnt.get(footageId)!;
  };
}
