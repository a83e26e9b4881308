// The shape of a rendered reel, shared by the renderer (server/reels/render.ts) and the review
// screen's length estimate: card lengths and the cross-fade between every two pieces.
export const REEL_FORMAT = {
  crossfadeS: 0.5,
  reel: { width: 1920, height: 1080, introS: 3, outroS: 2.5 },
  social: { width: 1080, height: 1920, introS: 2, outroS: 2 },
  /** The social cut's limit, as the platforms that show vertical video take it. */
  socialMaxS: 60,
} as const;

export type OutputKind = 'reel' | 'social';

/** Length of an output: every piece, less one cross-fade between each two. */
export function outputDuration(kind: OutputKind, clipDurations: number[]): number {
  const f = REEL_FORMAT[kind];
  const pieces = [f.introS, ...clipDurations, f.outroS];
  return pieces.reduce((a, b) => a + b, 0) - (pieces.length - 1) * REEL_FORMAT.crossfadeS;
}
