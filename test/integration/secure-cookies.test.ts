// Served over HTTPS (BASE_URL https://…), session cookies carry Secure and HSTS is sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../src/server/config';
import { createApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { user } from '../../src/server/db/schema';
import { buildDeps } from '../../src/server/server';
import type { AppDeps } from '../../src/server/deps';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

const origin = 'https://reels.example.test';
let deps: AppDeps;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-https-'));

beforeAll(async () => {
  const config = loadConfig({ baseUrl: origin, dataDir, smtpUrl: null, logMailLinks: false, authSecret: 'x'.repeat(40) });
  deps = await buildDeps(config, { database: await openDatabase({ url: null, pgliteDir: 'memory://' }) });
});
afterAll(async () => {
  await deps?.bus.close();
  await deps?.database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('sets a Secure, HttpOnly, SameSite=Lax session cookie and HSTS', async () => {
  const app = createApp(deps);
  const headers = { origin, 'content-type': 'application/json' };
  const signUp = await app.request(`${origin}/api/account/sign-up`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ fullName: 'Sam Secure', email: 'sam@example.com', password: 'secret123' }),
  });
  expect(signUp.status).toBe(201);
  await deps.db.update(user).set({ emailVerified: true }).where(eq(user.email, 'sam@example.com'));
  const res = await app.request(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: 'sam@example.com', password: 'secret123' }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token'))!;
  expect(cookie).toMatch(/^__Secure-/);
  expect(cookie).toMatch(/; Secure/i);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
});
