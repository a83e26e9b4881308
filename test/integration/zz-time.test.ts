import { it } from 'vitest';
import { startTestApp } from '../support/app';
it('t', async () => {
  for (let i = 0; i < 2; i++) {
  const t0 = Date.now();
  const app = await startTestApp();
  const t1 = Date.now();
  await app.close();
  console.log('start', t1 - t0, 'close', Date.now() - t1);
  }
});
