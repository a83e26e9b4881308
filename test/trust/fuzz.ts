// Scenario 6: bad input at volume. Every API route, read from the product's own router, gets
// requests generated with fast-check (odd path parameters, query strings, JSON of every shape and
// bodies that are not JSON), as a visitor, a family and an admin, spread over both instances:
// never a 5xx, never a stack in a body, and both instances still answer afterwards.
import fc from 'fast-check';
import { createApp } from '../../src/server/app';
import { outcome, type Scenario } from './scenario';
import { call, seedAdmin, seedFamilies } from './seed';

const STACK = /\n\s+at |node_modules|\.tsx?:\d+|Error: /;
/** Routes a fuzzer must not hold open or cannot reach with JSON: streams, tus uploads, the scraper's. */
const SKIP = [/^\/api\/realtime\/stream$/, /footage-uploads|\/api\/admin\/uploads/, /^\/api\/metrics$/, /^\/api\/auth\/(sign-out|delete-user|revoke)/];

const paramValue = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '..', '%00', "' OR 1=1 --", 'null', 'undefined', 'a'.repeat(300), '😀', '00000000-0000-4000-8000-000000000000'),
);
const fieldNames = fc.constantFrom('email', 'password', 'fullName', 'name', 'id', 'ids', 'userId', 'eventId', 'games', 'decision', 'startS', 'endS', 'code', 'consent', 'spotlight', 'label', 'amount', 'message', 'title', 'q', 'page');
const oddValue = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.double(), fc.constantFrom(null, true, '', ' ', -1, 1e308, '1e999', '<script>', '\u0000'));
const body = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fieldNames, oddValue, { maxKeys: 6 }).map((v) => ({ json: JSON.stringify(v), type: 'application/json' })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ json: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((s) => ({ json: s, type: 'application/json' })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }).map((s) => ({ json: s, type: 'text/plain' })) },
);
/**
 * Bodies every route that reads one gets from the family and the admin, whatever the seed: JSON
 * that is not an object, an empty object, and text that is not JSON. Chance alone reached a
 * null body on an admin route too rarely to be relied on.
 */
const EDGE_BODIES = ['null', '[]', '0', '"text"', 'true', '{}', 'not json', ''];
const EDGE_PARAM = '00000000-0000-4000-8000-000000000000';
const query = fc.dictionary(fc.constantFrom('q', 'page', 'limit', 'status', 'sort', 'event', 'from', 'to', 'cursor'), fc.string({ maxLength: 30 }), { maxKeys: 3 });

export const fuzz: Scenario = {
  name: 'fuzz',
  timeoutMs: { short: 5 * 60_000, full: 15 * 60_000 },
  async run(t, { log, short }) {
    const failures: string[] = [];
    const [family] = await seedFamilies(t, 1);
    const admin = await seedAdmin(t);
    const routes = new Map<string, { method: string; path: string }>();
    for (const r of createApp(t.deps).routes) {
      if (!r.path.startsWith('/api/') || SKIP.some((re) => re.test(r.path))) continue;
      const methods = r.method === 'ALL' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : [r.method];
      for (const method of methods) routes.set(`${method} ${r.path}`, { method, path: r.path.replace(/\/\*$/, '/:rest') });
    }
    const runs = short ? 12 : 80;
    const seed = Number(process.env.TRUST_FUZZ_SEED ?? Date.now() % 1_000_000);
    let sent = 0;
    let n = 0;
    const statuses = new Map<number, number>();
    const request = fc.record({ params: fc.array(paramValue, { minLength: 4, maxLength: 4 }), body, query, who: fc.constantFrom('visitor', 'family', 'admin') });
    const edgeCases = [...routes.values()]
      .filter((route) => route.method !== 'GET')
      .flatMap((route) =>
        (['family', 'admin'] as const).flatMap((who) =>
          EDGE_BODIES.map((json) => ({ route, input: { params: Array<string>(4).fill(EDGE_PARAM), body: { json, type: 'application/json' }, query: {}, who } })),
        ),
      );
    const generated = [...routes.values()].flatMap((route) => fc.sample(request, { numRuns: runs, seed: seed + n++ }).map((input) => ({ route, input })));
    for (const { route, input } of [...edgeCases, ...generated]) {
      let i = 0;
      const pathname = route.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, () => encodeURIComponent(input.params[i++ % 4]!));
      const qs = new URLSearchParams(input.query).toString();
      const cookie = input.who === 'family' ? family!.cookie : input.who === 'admin' ? admin.cookie : undefined;
      const hasBody = !['GET', 'HEAD'].includes(route.method);
      const label = `${route.method} ${route.path} (${input.who})`;
      sent++;
      try {
        const res = await call(t, t.api(), `${pathname}${qs ? `?${qs}` : ''}`, {
          method: route.method,
          cookie,
          headers: hasBody ? { 'content-type': input.body.type } : {},
          body: hasBody ? input.body.json : undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${res.status} ${label} ${pathname} ${input.body.json.slice(0, 80)} -> ${text.slice(0, 120)}`);
        else if (STACK.test(text) && !text.startsWith('<!doctype html')) failures.push(`stack in ${label}: ${text.slice(0, 160)}`);
      } catch (error) {
        failures.push(`no answer to ${label} ${pathname}: ${(error as Error).message}`);
      }
    }
    log(`${sent} requests over ${routes.size} routes (seed ${seed})`);
    for (const api of t.apis) {
      const health = await fetch(`${api.url}/api/health`).then((r) => r.status).catch(() => 0);
      if (health !== 200) failures.push(`${api.name} does not answer afterwards (${health})`);
    }
    const spread = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s}:${c}`).join(',');
    return outcome(failures.slice(0, 5).concat(failures.length > 5 ? [`… ${failures.length} in all`] : []), `routes=${routes.size} requests=${sent} seed=${seed} statuses=${spread} server_errors=${failures.length}`);
  },
};
