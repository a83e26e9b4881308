// Issue 6: what an attacker tried against the running product, each a regression test named by
// its threat. Rate limits and the client address behind proxies are in rate-limit.test.ts, the
// age rule in registration.test.ts, the reset timing in password-reset.test.ts, the admin CLI
// in admin-cli.test.ts, promo-code guessing in orders.test.ts, the auto-reply in contact.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_ERRORS, BAD_PAGE_ADDRESS, FIELD_ERRORS, REQUEST_TOO_LARGE } from '../../src/common/messages';
import { PROMO } from '../../src/common/dashboard-messages';
import { createApp } from '../../src/server/app';
import { contactMessages, homepageSignups, rateLimitHits, user, userProfiles } from '../../src/server/db/schema';
import { isUploadRoute, JSON_BODY_MAX_BYTES } from '../../src/server/http/body-limit';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { logger } from '../../src/server/observability/logger';

let app: TestApp;
let webDir: string;
let member: Awaited<ReturnType<typeof createVerifiedUser>>;

beforeAll(async () => {
  // A web app of our own, so the static handler's answers are known.
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>shell</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDir, 'assets', 'app-1234.js.map'), '{"sources":["src/web/secret.tsx"]}');
  app = await startTestApp({ rateLimitScale: 50, webDir });
  member = await createVerifiedUser(app, { fullName: 'Member Person' });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

/** Every mutating route under /api, read from the app's own router. */
function mutatingApiRoutes(): Array<{ method: string; path: string }> {
  const routes = createApp(app.server.deps).routes;
  const seen = new Set<string>();
  const out: Array<{ method: string; path: string }> = [];
  for (const r of routes) {
    if (!r.path.startsWith('/api/')) continue;
    const methods = r.method === 'ALL' ? ['POST', 'PUT', 'PATCH', 'DELETE'] : [r.method];
    for (const method of methods.filter((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m))) {
      const concrete = r.path.replace(/:[a-zA-Z]+(\{[^}]*\})?/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');
      const key = `${method} ${concrete}`;
      if (!seen.has(key)) out.push({ method, path: concrete });
      seen.add(key);
    }
  }
  return out;
}

/** Sends headers announcing `declaredBytes` and then `sendBytes` of body; resolves with the status. */
function sendBody(pathname: string, opts: { method?: string; declaredBytes?: number; chunked?: boolean; cookie?: string; contentType?: string }) {
  return new Promise<{ status: number; bytesWritten: number }>((resolve, reject) => {
    const headers: Record<string, string> = { origin: app.origin, 'content-type': opts.contentType ?? 'application/json' };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (!opts.chunked) headers['content-length'] = String(opts.declaredBytes);
    const req = http.request(`${app.url}${pathname}`, { method: opts.method ?? 'POST', headers, agent: false });
    let written = 0;
    let done = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    req.on('response', (res) => {
      done = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, bytesWritten: written });
      req.destroy();
    });
    req.on('error', (e) => (done ? undefined : reject(e)));
    const pump = () => {
      // A client that keeps writing; the server must answer long before 200 MB.
      while (!done && written < 200 * 1024 * 1024) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    if (opts.chunked) pump();
    else req.flushHeaders();
  });
}

describe('threat 2: request bodies are limited before they are read', () => {
  it('every JSON route (read from the router) answers 413 to a body over 64 KB, visitors included', async () => {
    const routes = mutatingApiRoutes().filter((r) => !isUploadRoute(r.method, r.path));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const body = JSON.stringify({ padding: 'x'.repeat(JSON_BODY_MAX_BYTES + 1) });
    for (const route of routes) {
      const res = await app.fetch(route.path, { method: route.method, body, headers: { 'content-type': 'application/json' } });
      expect(res.status, `${route.method} ${route.path}`).toBe(413);
      expect(await jsonOf(res), `${route.method} ${route.path}`).toEqual({ code: 'TOO_LARGE', message: REQUEST_TOO_LARGE });
    }
  });

  it('a 200 MB chunked body to /api/contact is cut off after the limit, and nothing is stored', async () => {
    const before = (await app.db.select().from(contactMessages)).length;
    const res = await sendBody('/api/contact', { chunked: true });
    expect(res.status).toBe(413);
    expect(res.bytesWritten).toBeLessThan(20 * 1024 * 1024);
    expect(await app.db.select().from(contactMessages)).toHaveLength(before);
  });

  it('each upload route refuses a body over its own limit from the headers alone', async () => {
    const uploads = mutatingApiRoutes().filter((r) => isUploadRoute(r.method, r.path));
    expect(uploads.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'PATCH /api/admin/footage-uploads/00000000-0000-4000-8000-000000000000',
      'PATCH /api/admin/uploads/00000000-0000-4000-8000-000000000000',
      'POST /api/account/register',
      'POST /api/admin/events/00000000-0000-4000-8000-000000000000/roster',
      'POST /api/admin/footage-uploads',
      'POST /api/admin/uploads',
      'POST /api/admin/users/00000000-0000-4000-8000-000000000000/stills',
      'POST /api/profile/avatar',
      'POST /api/profile/banner',
      'POST /api/profile/reference-photos',
      'PUT /api/videos/00000000-0000-4000-8000-000000000000/thumbnail',
    ]);
    const admin = await createVerifiedUser(app, { fullName: 'Limit Admin' });
    await makeAdmin(app, admin.userId);
    const tusRoutes = ['/api/admin/uploads', '/api/admin/footage-uploads'];
    for (const route of uploads.filter((r) => r.method !== 'PATCH' && !tusRoutes.includes(r.path))) {
      const res = await sendBody(route.path, {
        method: route.method,
        declaredBytes: 600 * 1024 * 1024,
        cookie: route.path.startsWith('/api/admin/') ? admin.cookie : member.cookie,
        contentType: 'multipart/form-data; boundary=x',
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(413);
    }
    // A resumable upload announces its size first; over 500MB it is refused before it exists.
    const tus = await app.fetch('/api/admin/uploads', {
      method: 'POST',
      cookie: admin.cookie,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(500 * 1024 * 1024 + 1) },
    });
    expect(tus.status).toBe(413);
    // Footage has its own, larger limit (FOOTAGE_MAX_GB), checked the same way.
    const footage = await app.fetch('/api/admin/footage-uploads', {
      method: 'POST',
      cookie: admin.cookie,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(app.server.deps.config.faces.footageMaxBytes + 1) },
    });
    expect(footage.status).toBe(413);
  });
});

describe('threat 4: odd input is a 400, never a 500', () => {
  const NUL = 'Jordan\u0000';

  it('a NUL in a profile edit is refused with a clear message and changes nothing', async () => {
    const before = (await app.db.select().from(userProfiles).where(eq(userProfiles.id, member.userId)))[0]!;
    for (const [field, label] of [['firstName', 'First name'], ['city', 'City'], ['teamName', 'Team name']] as const) {
      const res = await app.fetch('/api/profile', {
        method: 'PATCH',
        cookie: member.cookie,
        json: { firstName: 'Jordan', lastName: 'Miles', [field]: NUL },
      });
      expect(res.status, field).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message: FIELD_ERRORS.invalidCharacters(label) });
    }
    const after = (await app.db.select().from(userProfiles).where(eq(userProfiles.id, member.userId)))[0]!;
    expect(after).toEqual(before);
  });

  it('a NUL in a contact message is refused, stored nowhere, and does not use up the allowance', async () => {
    const email = uniqueEmail('nul');
    const res = await app.fetch('/api/contact', {
      method: 'POST',
      json: { firstName: 'Sam', lastName: 'Lee', email, subject: 'Hi', message: 'Hello\u0000there' },
    });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message: FIELD_ERRORS.invalidCharacters('Message') });
    expect(await app.db.select().from(contactMessages).where(eq(contactMessages.email, email))).toHaveLength(0);
    expect(await app.db.select().from(rateLimitHits).where(sql`${rateLimitHits.key} like 'contact:ip:%'`)).toHaveLength(0);
  });

  it('a NUL in a homepage sign-up is refused and stores nothing', async () => {
    const email = uniqueEmail('nul');
    const res = await app.fetch('/api/account/homepage-signups', { method: 'POST', json: { firstName: NUL, lastName: 'Lee', email } });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).message).toBe(FIELD_ERRORS.invalidCharacters('First name'));
    expect(await app.db.select().from(homepageSignups).where(eq(homepageSignups.email, email))).toHaveLength(0);
  });

  it('a NUL in a promo code, an order session id, a sign-in or a request is answered, not crashed on', async () => {
    const promo = await app.fetch('/api/promo-codes/check', { method: 'POST', cookie: member.cookie, json: { code: 'SPRING\u000020' } });
    expect(promo.status).toBe(404);
    expect(await jsonOf(promo)).toMatchObject({ code: 'INVALID_PROMO', message: PROMO.invalid.description });

    const order = await app.fetch('/api/orders/by-session/a%00b', { cookie: member.cookie });
    expect(order.status).toBe(404);

    const signIn = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: `a\u0000${member.email}`, password: 'x12345' } });
    expect(signIn.status).toBe(400);
    expect((await jsonOf(signIn)).message).toBe(AUTH_ERRORS.invalidEmail);

    const request = await app.fetch('/api/requests', { method: 'POST', cookie: member.cookie, json: { eventId: 'x\u0000', games: ['g\u0000'] } });
    expect(request.status).toBe(400);
  });

  it('malformed percent-encoding in a page or asset path is a 400 with a plain message', async () => {
    for (const p of ['/%', '/assets/%ZZ', '/dashboard%', '/%00admin']) {
      const res = await app.fetch(p);
      expect(res.status, p).toBe(400);
      expect(await res.text()).toBe(BAD_PAGE_ADDRESS);
    }
  });

  it('an unexpected failure answers the API error shape with a request id, and logs that id with the error', async () => {
    const broken = await startTestApp();
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      const u = await createVerifiedUser(broken);
      await broken.db.execute(sql`DROP TABLE promo_codes`);
      const res = await broken.fetch('/api/promo-codes/check', { method: 'POST', cookie: u.cookie, json: { code: 'SPRING20' } });
      expect(res.status).toBe(500);
      const body = await jsonOf<{ code: string; message: string; requestId: string }>(res);
      expect(body).toEqual({ code: 'INTERNAL_ERROR', message: AUTH_ERRORS.generic, requestId: res.headers.get('x-request-id') });
      expect(JSON.stringify(body)).not.toMatch(/promo_codes|at .*\.ts/);
      expect(logged.mock.calls.some((call) => (call[0] as unknown as { reqId?: string }).reqId === body.requestId)).toBe(true);
    } finally {
      logged.mockRestore();
      await broken.close();
    }
  });

  it("a client's own X-Request-Id is not taken into the server's logs", async () => {
    const res = await app.fetch('/api/health', { headers: { 'x-request-id': 'forged-id' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('threat 5: only the auth endpoints the product uses are open', () => {
  const unused: Array<[string, string, unknown]> = [
    ['POST', '/api/auth/update-user', { name: 'x'.repeat(2000) }],
    ['POST', '/api/auth/update-user', { name: { a: 1 } }],
    ['POST', '/api/auth/update-user', { image: 'javascript:alert(1)' }],
    ['POST', '/api/auth/change-password', { currentPassword: 'wrong-one', newPassword: 'another1', revokeOtherSessions: false }],
    ['POST', '/api/auth/change-email', { newEmail: 'taken.over@example.com' }],
    ['POST', '/api/auth/delete-user', {}],
    ['POST', '/api/auth/revoke-sessions', {}],
    ['GET', '/api/auth/list-sessions', undefined],
    ['GET', '/api/auth/list-accounts', undefined],
    ['POST', '/api/auth/sign-up/email', { name: 'X', email: 'x@example.com', password: 'secret12' }],
    ['POST', '/api/auth/Sign-In/Email', { email: 'x@example.com', password: 'secret12' }],
  ];
  it.each(unused)('%s %s answers 404 and changes nothing', async (method, pathname, json) => {
    const before = (await app.db.select().from(user).where(eq(user.id, member.userId)))[0]!;
    const res = await app.fetch(pathname, { method, json, cookie: member.cookie });
    expect(res.status).toBe(404);
    expect((await jsonOf(res)).code).toBe('NOT_FOUND');
    const after = (await app.db.select().from(user).where(eq(user.id, member.userId)))[0]!;
    expect(after).toEqual(before);
    expect((await app.fetch('/api/account/me', { cookie: member.cookie }).then((r) => r.json())) as { user: unknown }).toMatchObject({
      user: { id: member.userId },
    });
  });

  it('change-password cannot be used to guess the current password (25 tries, all 404)', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await app.fetch('/api/auth/change-password', {
        method: 'POST',
        cookie: member.cookie,
        json: { currentPassword: `guess-${i}`, newPassword: 'another1' },
      });
      expect(res.status).toBe(404);
    }
  });
});

describe('threat 7: page guards see every spelling of a guarded path', () => {
  const spellings: Array<[string, string]> = [
    ['/Admin', '/admin'],
    ['/ADMIN/users', '/admin/users'],
    ['//admin', '/admin'],
    ['/admin/', '/admin'],
    ['/admin%2F', '/admin'],
    ['/admin%2fusers', '/admin/users'],
    ['/./admin', '/admin'],
    ['/x/../admin', '/admin'],
    ['/Dashboard', '/dashboard'],
    ['/dashboard//', '/dashboard'],
  ];
  it.each(spellings)('%s is guarded as %s and never serves the app shell', async (spelling, canonical) => {
    // Sent as written (fetch would resolve the dot segments itself).
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: app.server.port, path: spelling, agent: false }, (r) => resolve(r.resume())).on('error', reject);
    });
    if (res.statusCode === 302) {
      // Dot segments are resolved before the app sees the URL: the guard itself answers.
      expect(res.headers.location).toBe('/auth');
      return;
    }
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe(canonical);
    const next = await app.fetch(canonical);
    expect(next.status).toBe(302);
    expect(next.headers.get('location')).toBe('/auth');
  });

  it('the query string survives the redirect', async () => {
    const res = await app.fetch('/Reset-Password?token=abc');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/reset-password?token=abc');
  });

  it('a non-admin following the redirect is sent to the dashboard, not the admin screens', async () => {
    const res = await app.fetch('/ADMIN', { cookie: member.cookie });
    expect(res.headers.get('location')).toBe('/admin');
    const next = await app.fetch('/admin', { cookie: member.cookie });
    expect(next.headers.get('location')).toBe('/dashboard?denied=admin');
  });

  it('canonical public pages and assets are served as they are', async () => {
    expect((await app.fetch('/about')).status).toBe(200);
    expect((await app.fetch('/assets/app-1234.js')).status).toBe(200);
  });
});

describe('threat 11: source maps are never served', () => {
  it('a .map file answers 404 even when it is on disk', async () => {
    const res = await app.fetch('/assets/app-1234.js.map');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret.tsx');
  });
});
