// A radix-2 fast Fourier transform and the cross-correlation built on it, for lining up the
// cameras of a game by their sound (footage/sync.ts). Plain loops over Float64Arrays: a 2^19-point
// transform takes tens of milliseconds, so nothing needs a library.

/** The smallest power of two that is at least `n`. */
export function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

const twiddles = new Map<number, { cos: Float64Array; sin: Float64Array }>();

function twiddlesFor(n: number) {
  let t = twiddles.get(n);
  if (!t) {
    const cos = new Float64Array(n / 2);
    const sin = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) {
      cos[k] = Math.cos((2 * Math.PI * k) / n);
      sin[k] = Math.sin((2 * Math.PI * k) / n);
    }
    t = { cos, sin };
    // Sizes used are few (frames, correlations); keep the tables of the last handful.
    if (twiddles.size > 8) twiddles.delete(twiddles.keys().next().value!);
    twiddles.set(n, t);
  }
  return t;
}

/**
 * The discrete Fourier transform of (re, im) in place; `inverse` gives the inverse transform,
 * scaled by 1/n. The length must be a power of two.
 */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (im.length !== n || (n & (n - 1)) !== 0) throw new Error('fft: the length must be a power of two, the same for both parts');
  // Bit-reversed order.
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  const { cos, sin } = twiddlesFor(n);
  const sign = inverse ? 1 : -1;
  for (let size = 2; size <= n; size *= 2) {
    const half = size / 2;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step]!;
        const wi = sign * sin[k * step]!;
        const a = start + k;
        const b = a + half;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] = re[i]! / n;
      im[i] = im[i]! / n;
    }
  }
}

export interface CrossCorrelation {
  /** c[k] = Σ a[i + k]·b[i]; the value for lag k (negative too) is at(k). */
  at(lag: number): number;
  /** The transform's length: lags run from -(b.length - 1) to a.length - 1. */
  size: number;
}

/**
 * The cross-correlation of two real signals through one forward transform of both (packed as
 * the real and imaginary parts) and one inverse. With `phat`, every frequency is weighted to unit
 * magnitude (the phase transform): the peak turns sharp and the signals' colour stops mattering.
 */
export function crossCorrelate(a: ArrayLike<number>, b: ArrayLike<number>, opts: { phat?: boolean } = {}): CrossCorrelation {
  const n = nextPowerOfTwo(a.length + b.length);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < a.length; i++) re[i] = a[i]!;
  for (let i = 0; i < b.length; i++) im[i] = b[i]!;
  fft(re, im);
  // Z = A + iB, so A[k] = (Z[k] + conj Z[n-k]) / 2 and B[k] = (Z[k] - conj Z[n-k]) / 2i; the
  // product A·conj(B) goes into new arrays, as every k needs Z[n-k] unchanged.
  const pr = new Float64Array(n);
  const pi = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const m = (n - k) & (n - 1);
    const zr = re[k]!;
    const zi = im[k]!;
    const cr = re[m]!;
    const ci = -im[m]!;
    const ar = (zr + cr) / 2;
    const ai = (zi + ci) / 2;
    // (Z - conj Z[n-k]) / 2i = (di - i·dr) / 2 with d = Z - conj Z[n-k].
    const br = (zi - ci) / 2;
    const bi = -(zr - cr) / 2;
    let xr = ar * br + ai * bi;
    let xi = ai * br - ar * bi;
    if (opts.phat) {
      const mag = Math.hypot(xr, xi) + 1e-12;
      xr /= mag;
      xi /= mag;
    }
    pr[k] = xr;
    pi[k] = xi;
  }
  fft(pr, pi, true);
  return { size: n, at: (lag: number) => pr[((lag % n) + n) % n]! };
}
