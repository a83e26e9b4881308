// The running server's door for `npm run admin` on the embedded database. PGlite belongs to one
// process, so while the server holds it the command cannot open it; instead it asks the server,
// over a Unix socket in DATA_DIR that only this machine's owner of the data folder can reach
// (mode 0600), with a secret the server writes next to it at each start (also 0600). Only the admin
// commands go through it. See docs/decisions/0009.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../deps';
import { ADMIN_COMMANDS, COMMANDS_WITHOUT_EMAIL, runAdminCommand, type AdminCommand, type AdminCommandResult } from './service';

export const channelPaths = (dataDir: string) => ({
  socket: path.join(dataDir, 'admin.sock'),
  key: path.join(dataDir, 'admin-channel.key'),
});

export async function startAdminChannel(deps: Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'bus'>, dataDir: string): Promise<() => Promise<void>> {
  const { socket, key } = channelPaths(dataDir);
  const secret = randomBytes(32).toString('hex');
  fs.rmSync(socket, { force: true });
  fs.writeFileSync(key, secret, { mode: 0o600 });
  const expected = Buffer.from(`Bearer ${secret}`);

  const server = http.createServer((req, res) => {
    const answer = (status: number, body: AdminCommandResult) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(401, { ok: false, message: 'Not allowed.' });
    const command = ADMIN_COMMANDS.find((c) => req.url === `/${c}`) ?? null;
    if (req.method !== 'POST' || !command) return answer(404, { ok: false, message: 'Unknown command.' });
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
      if (raw.length > 1024) req.destroy();
    });
    req.on('end', () => {
      const email = (() => {
        try {
          return String((JSON.parse(raw) as { email?: unknown }).email ?? '');
        } catch {
          return '';
        }
      })();
      if (email.length > 254 || (!email && !COMMANDS_WITHOUT_EMAIL.includes(command))) return answer(400, { ok: false, message: 'An email is needed.' });
      runAdminCommand(deps, command, email).then(
        (result) => answer(200, result),
        (error: Error) => answer(500, { ok: false, message: error.message }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(socket, { force: true });
    fs.rmSync(key, { force: true });
  };
}

/** Asks the running server to run an admin command; null when no server answers on the channel. */
export async function askRunningServer(dataDir: string, command: AdminCommand, email: string): Promise<AdminCommandResult | null> {
  const { socket, key } = channelPaths(dataDir);
  if (!fs.existsSync(socket) || !fs.existsSync(key)) return null;
  const secret = fs.readFileSync(key, 'utf8').trim();
  return new Promise((resolve) => {
    const req = http.request(
      { socketPath: socket, path: `/${command}`, method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body) as AdminCommandResult);
          } catch {
            resolve({ ok: false, message: `The server answered ${res.statusCode}.` });
          }
        });
      },
    );
    req.on('error', () => resolve(null));
    req.end(JSON.stringify({ email }));
  });
}
