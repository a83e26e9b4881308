import { describe, expect, it } from 'vitest';
import { crossCorrelate, fft, nextPowerOfTwo } from './fft';

const random = (seed: number) => () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32 - 0.5;
};

describe('the FFT', () => {
  it('matches the discrete Fourier transform written out, and comes back with the inverse', () => {
    const n = 64;
    const next = random(1);
    const re = Float64Array.from({ length: n }, next);
    const im = Float64Array.from({ length: n }, next);
    const [r0, i0] = [re.slice(), im.slice()];
    fft(re, im);
    for (const k of [0, 1, 5, 31, 32, 63]) {
      let sr = 0;
      let si = 0;
      for (let t = 0; t < n; t++) {
        const a = (-2 * Math.PI * k * t) / n;
        sr += r0[t]! * Math.cos(a) - i0[t]! * Math.sin(a);
        si += r0[t]! * Math.sin(a) + i0[t]! * Math.cos(a);
      }
      expect(re[k]).toBeCloseTo(sr, 9);
      expect(im[k]).toBeCloseTo(si, 9);
    }
    fft(re, im, true);
    for (let t = 0; t < n; t++) {
      expect(re[t]).toBeCloseTo(r0[t]!, 12);
      expect(im[t]).toBeCloseTo(i0[t]!, 12);
    }
  });

  it('refuses a length that is not a power of two', () => {
    expect(() => fft(new Float64Array(12), new Float64Array(12))).toThrow();
    expect(nextPowerOfTwo(1000)).toBe(1024);
    expect(nextPowerOfTwo(1024)).toBe(1024);
  });
});

describe('the cross-correlation', () => {
  it('gives Σ a[i+k]·b[i] at every lag, negative ones too', () => {
    const next = random(7);
    const a = Array.from({ length: 37 }, next);
    const b = Array.from({ length: 23 }, next);
    const corr = crossCorrelate(a, b);
    for (const k of [-22, -5, 0, 3, 36]) {
      let sum = 0;
      for (let i = 0; i < b.length; i++) if (i + k >= 0 && i + k < a.length) sum += a[i + k]! * b[i]!;
      expect(corr.at(k)).toBeCloseTo(sum, 10);
    }
  });

  it('peaks where a delayed copy lines up, with and without the phase transform', () => {
    const next = random(3);
    const a = Array.from({ length: 4000 }, next);
    const b = a.slice(1234, 3234).map((v) => v * 0.3 + next() * 0.1);
    for (const phat of [false, true]) {
      const corr = crossCorrelate(a, b, { phat });
      let best = -b.length;
      for (let k = -b.length + 1; k < a.length; k++) if (corr.at(k) > corr.at(best)) best = k;
      expect(best).toBe(1234);
    }
  });
});
