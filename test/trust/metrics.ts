// The suite's figures, read from the product's own metrics (GET /api/metrics, Prometheus text):
// request latency quantiles per route from the histogram, and a process's resident memory and
// JavaScript heap.
import type { Topology } from './topology';

export type Samples = Map<string, number>;

export async function scrape(t: Topology, base: string): Promise<Samples> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${t.metricsToken}` } });
  if (res.status !== 200) throw new Error(`GET /api/metrics answered ${res.status}`);
  const samples: Samples = new Map();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

export const residentBytes = (s: Samples) => s.get('process_resident_memory_bytes') ?? NaN;
/** The JavaScript heap in use (live objects and garbage not yet collected): a leak in the code grows it, the allocator's own growth does not. */
export const heapUsedBytes = (s: Samples) => s.get('nodejs_heap_size_used_bytes') ?? NaN;

function labels(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of name.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

export interface RouteLatency {
  route: string;
  count: number;
  p50ms: number;
  p99ms: number;
}

/**
 * p50 and p99 per route (GET, 2xx) of the requests between two scrapes, from the histogram's
 * buckets (linear within a bucket, as Prometheus' histogram_quantile does).
 */
export function latencies(before: Samples, after: Samples): RouteLatency[] {
  const routes = new Set<string>();
  for (const name of after.keys()) if (name.startsWith('http_request_duration_seconds_count{') && labels(name).method === 'GET' && labels(name).status === '2xx') routes.add(labels(name).route!);
  return [...routes].map((route) => {
    const buckets: Array<{ le: number; n: number }> = [];
    for (const [name, value] of after) {
      if (!name.startsWith('http_request_duration_seconds_bucket{')) continue;
      const l = labels(name);
      if (l.route !== route || l.method !== 'GET' || l.status !== '2xx') continue;
      buckets.push({ le: l.le === '+Inf' ? Infinity : Number(l.le), n: value - (before.get(name) ?? 0) });
    }
    buckets.sort((a, b) => a.le - b.le);
    const count = buckets.at(-1)?.n ?? 0;
    const quantile = (q: number) => {
      if (!count) return NaN;
      const rank = q * count;
      let lower = 0;
      let below = 0;
      for (const b of buckets) {
        if (b.n >= rank) {
          if (b.le === Infinity) return lower * 1000;
          return (lower + ((b.le - lower) * (rank - below)) / Math.max(1, b.n - below)) * 1000;
        }
        lower = b.le;
        below = b.n;
      }
      return lower * 1000;
    };
    return { route, count, p50ms: quantile(0.5), p99ms: quantile(0.99) };
  }).filter((r) => r.count > 0);
}
