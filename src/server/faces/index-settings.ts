// How the index samples and searches a camera file, from the configuration: one place, read by
// the index job, the closer look at a hand-added clip, and the benchmarks.
import type { AppDeps } from '../deps';
import type { IndexSettings } from './types';

export function indexSettings(config: AppDeps['config']): IndexSettings {
  return {
    sampleFps: config.faces.sampleFps,
    detectInputSize: config.faces.detectInputSize,
    minDetectScore: 0.35,
    minFacePx: 24,
    minEmbedPx: 36,
    maxGapS: 1.5,
    fullLookEvery: config.faces.fullLookEvery,
    people: config.faces.personRows > 0 ? { rows: config.faces.personRows, lowScore: 0.25, highScore: 0.4, minHeightPx: 24, maxGapS: 1.5 } : null,
  };
}
