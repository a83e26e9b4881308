// Steady traffic while something fails: signed-in families opening their dashboards and the
// public pages, alternating between the API instances, every answer checked. A failure must be
// a clean 503 with Retry-After and the API's error shape: never a 500, never a stack.
import { call, type Family } from './seed';
import type { Topology } from './topology';

/** What the dashboard asks for on arrival: who is signed in, and its data in one request. */
export const DASHBOARD_ROUTES = ['/api/account/me', '/api/dashboard'];
export const PUBLIC_ROUTES = ['/', '/about', '/auth', '/api/health'];

export interface TrafficReport {
  requests: number;
  ok: number;
  unavailable: number;
  /** Answers that were neither ok nor a clean 503: status, route and the start of the body. */
  bad: string[];
  stop(): Promise<void>;
}

const STACK = /\n\s+at |node_modules|\.ts:\d+/;

export function startTraffic(t: Topology, families: Family[], clients = 8): TrafficReport {
  let running = true;
  const report: TrafficReport = { requests: 0, ok: 0, unavailable: 0, bad: [], stop: async () => {} };
  const loop = async (n: number) => {
    let i = n;
    while (running) {
      i++;
      const family = families[i % families.length]!;
      const signedIn = i % 4 !== 0;
      const route = signedIn ? DASHBOARD_ROUTES[i % DASHBOARD_ROUTES.length]! : PUBLIC_ROUTES[i % PUBLIC_ROUTES.length]!;
      report.requests++;
      try {
        const res = await call(t, t.api(i), route, { cookie: signedIn ? family.cookie : undefined, signal: AbortSignal.timeout(15_000) });
        const body = await res.text();
        if (res.status < 400) report.ok++;
        else if (res.status === 503 && res.headers.get('retry-after') && !STACK.test(body) && /"code":"UNAVAILABLE"/.test(body)) report.unavailable++;
        else report.bad.push(`${res.status} ${route} ${body.slice(0, 120)}`);
      } catch (error) {
        report.bad.push(`no answer ${route}: ${(error as Error).message}`);
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, n) => loop(n * 1000));
  report.stop = async () => {
    running = false;
    await Promise.all(loops);
  };
  return report;
}
