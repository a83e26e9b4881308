// Benchmark (issue 6, threat 8): does the time of a password-reset answer tell whether the
// address has an account? Starts the product as its own process (as `npm start` runs it, with
// the outbox mailer), then interleaves reset requests for known and unknown addresses from this
// process and prints the medians and their ratio. A ratio near 1.0 means the answer's timing says
// nothing; when the mail was sent inside the request it was about 2.
//
//   npx tsx bench/reset-timing.ts     (BENCH_ROUNDS, default 60)
import { performance } from 'node:perf_hooks';
import { signUpByApi, startProduct } from '../test/e2e/support';

const ROUNDS = Number(process.env.BENCH_ROUNDS) > 0 ? Number(process.env.BENCH_ROUNDS) : 60;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const product = await startProduct({ RATE_LIMIT_SCALE: '1000', LOG_MAIL_LINKS: '0' });
try {
  const accounts: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { email, link } = await signUpByApi(product, `Timing Person${i}`);
    await fetch(link, { redirect: 'manual' });
    accounts.push(email);
  }
  let n = 0;
  const time = async (email: string) => {
    const t0 = performance.now();
    const res = await fetch(`${product.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: product.url },
      body: JSON.stringify({ email, redirectTo: '/reset-password' }),
    });
    await res.text();
    if (res.status !== 200) throw new Error(`reset answered ${res.status}`);
    return performance.now() - t0;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < ROUNDS + 10; i++) {
    for (const which of i % 2 === 0 ? ['known', 'unknown'] : ['unknown', 'known']) {
      const ms = await time(which === 'known' ? accounts[i % accounts.length]! : `nobody.${n++}.${Date.now()}@example.com`);
      if (i >= 10) (which === 'known' ? known : unknown).push(ms);
      // The server finishes the reset and its mail after answering; let that settle first.
      await pause(150);
    }
  }
  const k = median(known);
  const u = median(unknown);
  console.log(`password-reset answer, median of ${ROUNDS}: known address ${k.toFixed(2)} ms, unknown address ${u.toFixed(2)} ms`);
  console.log(`ratio known / unknown: ${(k / u).toFixed(2)}`);
} finally {
  await product.stop();
}
