// `npm run test:trust`: the trust suite. Starts the production topology (topology.ts) once, runs
// each scenario against it with a hard time limit, brings killed parts back between scenarios,
// and prints one line per scenario: `RESULT trust <scenario> ok|fail|skip <figures>`. Exits
// non-zero when any scenario failed. `--short` (or TRUST_SHORT=1) runs the short version meant
// for CI; names pick scenarios: `npm run test:trust -- load fuzz`.
export {};
process.env.LOG_LEVEL ??= 'warn';

const args = process.argv.slice(2);
const short = args.includes('--short') || process.env.TRUST_SHORT === '1';
const picked = args.filter((a) => !a.startsWith('--'));

const { cleanUpAll, heal, startTopology } = await import('./topology');
const { workerKill } = await import('./worker-kill');
const { apiKillUpload } = await import('./api-kill-upload');
const { pgRestart } = await import('./pg-restart');
const { outages } = await import('./outages');
const { load } = await import('./load');
const { fuzz } = await import('./fuzz');
const { work } = await import('./fixtures');
const fs = await import('node:fs');

const scenarios = [workerKill, apiKillUpload, pgRestart, outages, load, fuzz];
const unknown = picked.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; there are: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const chosen = picked.length ? scenarios.filter((s) => picked.includes(s.name)) : scenarios;

const started = Date.now();
const log = (line: string) => console.log(`[trust ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

let cleaning: Promise<void> | null = null;
const cleanUp = () => (cleaning ??= cleanUpAll().then(() => fs.rmSync(work, { recursive: true, force: true })));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`[trust] ${signal}: stopping everything`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const results: string[] = [];
let failed = false;
try {
  log(`${short ? 'short' : 'full'} run: ${chosen.map((s) => s.name).join(', ')}`);
  const topology = await startTopology(log);
  for (const scenario of chosen) {
    const limit = short ? scenario.timeoutMs.short : scenario.timeoutMs.full;
    log(`${scenario.name}: started (limit ${limit / 1000} s)`);
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      scenario.run(topology, { short, log: (line) => log(`${scenario.name}: ${line}`) }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`did not finish within ${limit / 1000} s`)), limit))),
    ])
      .catch((error: Error) => ({ result: 'fail' as const, figures: error.message.replace(/\s+/g, ' ').slice(0, 400) }))
      .finally(() => clearTimeout(timer));
    const line = `RESULT trust ${scenario.name} ${result.result} ${result.figures}`;
    if (result.result === 'fail') failed = true;
    results.push(line);
    console.log(line);
    // The next scenario starts on the whole topology again.
    topology.smtp.holdMs = 0;
    await topology.smtp.start().catch(() => {});
    await topology.s3.start().catch(() => {});
    if (topology.pg.ownCluster) await topology.pg.start().catch(() => {});
    await heal(topology).catch((error: Error) => log(`could not bring the topology back: ${error.message}`));
  }
} catch (error) {
  failed = true;
  console.error('[trust] the suite could not run:', error);
} finally {
  await cleanUp();
}
console.log(`\n== trust suite (${short ? 'short' : 'full'}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
for (const line of results) console.log(line);
process.exit(failed ? 1 : 0);
