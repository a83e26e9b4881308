// Benchmark: a 500 MB resumable (tus) video upload, against copying the same file on disk, and
// how much the server's memory grows meanwhile. Goals: the upload's throughput at least 0.5x the
// copy's, and the server's peak resident memory at most 64 MB above its level before the upload.
//
// Starts the product as its own process (test/e2e/support.ts: `src/server/main.ts`, PGlite, a
// fresh data folder, the outbox mailer), so the memory measured is the server's alone. Signs up
// an admin (sign-up, the confirmation link from the outbox, then `src/server/cli/admin.ts grant`,
// which reaches the running server over its admin channel) and an athlete, then restarts the
// server on the same data folder with RUN_WORKER=0 (the worker delivers mail, so it ran until
// then), so that no processing job runs after an upload and disturbs the measurement. Makes a file that starts as a real
// 2-second MP4 (ffmpeg) and is filled up with random bytes, in the temp folder, on the same
// filesystem as the server's data folder. Then, per round: copies the file (fs.copyFile + fsync),
// and uploads it in 8 MB chunks as the admin dialog does, once with the tus requests made directly
// (the goal is judged on this one) and once with tus-js-client, each timed from the first request
// to the last answer, while the server's VmRSS is read from /proc/<pid>/status every 50 ms and
// the CPU seconds of both processes are counted. A last copy closes the run. See bench/README.md.
//
//   npx tsx bench/upload.ts
//
// Options (environment): BENCH_UPLOAD_MB (default 500, the largest upload allowed),
// BENCH_ROUNDS (default 1), BENCH_CHUNK_MB (default 8, as the dialog), BENCH_CLIENT (direct or
// tus-js-client: only that one).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import * as tus from 'tus-js-client';
import { mailLink, startProduct, type Product } from '../test/e2e/support';
import { secretOfUri, totp } from '../test/support/totp';
import { jar } from '../test/support/two-factor';
import { intFromEnv, runBenchmark } from './support';

const MB = 1024 * 1024;
const SIZE_MB = intFromEnv('BENCH_UPLOAD_MB', 500);
const ROUNDS = intFromEnv('BENCH_ROUNDS', 1);
const CHUNK_MB = intFromEnv('BENCH_CHUNK_MB', 8);
const GOAL_RATIO = 0.5;
const GOAL_GROWTH_MB = 64;


/**
 * fetch, once more when the socket it reused was just closed by the server (its keep-alive timer
 * fired while the admin command ran): a setup hiccup, not something measured.
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** Signs up through the API as the simple form does and follows the confirmation link. */
async function signUp(product: Product, fullName: string): Promise<{ email: string; userId: string; cookie: string }> {
  const email = `${fullName.split(' ')[0]!.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  const res = await fetch(`${product.url}/api/account/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: product.url },
    body: JSON.stringify({ fullName, email, password: 'secret123' }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { userId } = (await res.json()) as { userId: string };
  const verify = await fetch(await mailLink(product, email, 'Confirm'), { redirect: 'manual' });
  const cookie = verify.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
  if (!cookie) throw new Error(`verification gave no session (status ${verify.status})`);
  return { email, userId, cookie };
}

/** An admin's session reaches the admin area once it passed the second factor: enrol by the API, as the setup screen does. */
async function passSecondFactor(product: Product, cookie: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    request(`${product.url}/api/auth/two-factor/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: product.url, cookie }, body: JSON.stringify(body) });
  const enable = await post('enable', { password: 'secret123' });
  if (enable.status !== 200) throw new Error(`two-factor enable: ${enable.status} ${await enable.text()}`);
  const secret = secretOfUri(((await enable.json()) as { totpURI: string }).totpURI);
  const verify = await post('verify-totp', { code: totp(secret) });
  if (verify.status !== 200) throw new Error(`two-factor verify: ${verify.status} ${await verify.text()}`);
  // Passing the factor may hand out a new session cookie.
  return jar(cookie, verify);
}

/** The server's process: the child of this one that runs src/server/main.ts. */
function serverPid(): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes('src/server/main.ts')) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error('the server process was not found');
}

/** Resident memory of a process in bytes (VmRSS). */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/** CPU seconds a process has used so far (user + system, from /proc/<pid>/stat; 100 ticks a second). */
function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const cpuTotal = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/** A real small MP4 (its header makes the server take the file as a video), filled up with random bytes. */
function makeVideoFile(file: string, bytes: number): void {
  const clip = `${file}.clip.mp4`;
  execFileSync('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip]);
  const head = fs.readFileSync(clip);
  fs.rmSync(clip);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, head);
    // The filling is one 'free' box, so the file's boxes still add up as the upload check wants.
    const free = Buffer.alloc(8);
    free.writeUInt32BE(bytes - head.length, 0);
    free.write('free', 4, 'latin1');
    fs.writeSync(fd, free);
    for (let written = head.length + free.length; written < bytes; ) {
      const block = randomBytes(Math.min(8 * MB, bytes - written));
      written += fs.writeSync(fd, block);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies `file` next to itself and waits until the copy is on disk; returns MB/s. */
async function timeCopy(file: string): Promise<number> {
  const copy = `${file}.copy`;
  const t0 = performance.now();
  await fs.promises.copyFile(file, copy);
  const handle = await fs.promises.open(copy, 'r+');
  await handle.sync();
  await handle.close();
  const seconds = (performance.now() - t0) / 1000;
  fs.rmSync(copy);
  return fs.statSync(file).size / MB / seconds;
}

/**
 * The same bytes through a bare TCP socket on loopback into a file, with nothing else: a Node
 * process of its own (like the server) piping the socket into a file, this process sending the
 * file in chunks of the upload's size. No HTTP, no framework, no checks: how fast any Node server
 * could take an upload on this machine, measured in the same run as the copy. The file is synced
 * to disk before it counts as received (`flush`), as the copy and a finished upload are.
 */
async function timeBareSocket(file: string): Promise<number> {
  const target = `${file}.received`;
  const receiver = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net'), fs = require('node:fs');
       const server = net.createServer((socket) => {
         const out = fs.createWriteStream(process.argv[1], { highWaterMark: 4 << 20, flush: true });
         socket.pipe(out);
         out.on('close', () => { process.stdout.write('done\\n'); server.close(); });
       }).listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`,
      target,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = readline.createInterface({ input: receiver.stdout! })[Symbol.asyncIterator]();
  const port = Number((await lines.next()).value);
  const size = fs.statSync(file).size;
  const chunk = Buffer.alloc(CHUNK_MB * MB);
  const handle = await fs.promises.open(file, 'r');
  const t0 = performance.now();
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  for (let at = 0; at < size; ) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, size - at), at);
    // The buffer is read into again only once the socket has taken it.
    await new Promise<void>((resolve, reject) => socket.write(chunk.subarray(0, bytesRead), (error) => (error ? reject(error) : resolve())));
    at += bytesRead;
  }
  socket.end();
  if ((await lines.next()).value !== 'done') throw new Error('the bare socket receiver did not finish');
  const seconds = (performance.now() - t0) / 1000;
  await handle.close();
  if (fs.statSync(target).size !== size) throw new Error('the bare socket receiver stored a different size');
  fs.rmSync(target);
  return size / MB / seconds;
}

interface UploadRun {
  client: UploadClient;
  mbPerSecond: number;
  before: number;
  peak: number;
  samples: number;
  /** The server's CPU seconds during the upload: unlike MB/s, barely moved by other work on the machine. */
  serverCpu: number;
  /** This process's CPU seconds meanwhile: the client reading the file and sending it. */
  clientCpu: number;
  videoId: string;
}

/**
 * Who sends the file. `direct`: the same tus requests as the dialog (one POST, then a PATCH per
 * chunk with Upload-Offset) made with node:http, each chunk read from disk into one reused buffer
 * and written whole, as a browser sends a File's slice without script work per byte.
 * `tus-js-client`: the dialog's own library, whose Node build pipes 64 KB reads through a progress
 * Transform: on this 2-core machine that client costs more CPU than the server does, so its figure
 * is the client's limit as much as the server's.
 */
type UploadClient = 'direct' | 'tus-js-client';
const CLIENTS: UploadClient[] = process.env.BENCH_CLIENT ? [process.env.BENCH_CLIENT as UploadClient] : ['direct', 'tus-js-client'];
if (!CLIENTS.every((c) => c === 'direct' || c === 'tus-js-client')) throw new Error(`BENCH_CLIENT is direct or tus-js-client, not ${process.env.BENCH_CLIENT}`);

interface Upload {
  product: Product;
  cookie: string;
  athleteId: string;
  file: string;
}
const uploadMetadata = (athleteId: string) => ({ userId: athleteId, title: 'Benchmark upload', paid: 'false', filename: 'bench.mp4' });

/** Sends the file with tus-js-client; resolves with the finished upload's answer. */
function sendWithTusJsClient({ product, cookie, athleteId, file }: Upload): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(file), {
      endpoint: `${product.url}/api/admin/uploads`,
      chunkSize: CHUNK_MB * MB,
      uploadSize: fs.statSync(file).size,
      retryDelays: [],
      storeFingerprintForResuming: false,
      metadata: uploadMetadata(athleteId),
      headers: { cookie, origin: product.url },
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
      onError: reject,
    });
    upload.start();
  });
}

/** Sends the file with the tus requests made directly; resolves with the finished upload's answer. */
async function sendDirect({ product, cookie, athleteId, file }: Upload): Promise<string> {
  const size = fs.statSync(file).size;
  const tusHeaders = { cookie, origin: product.url, 'tus-resumable': '1.0.0' };
  const metadata = Object.entries(uploadMetadata(athleteId)).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',');
  const created = await request(`${product.url}/api/admin/uploads`, { method: 'POST', headers: { ...tusHeaders, 'upload-length': String(size), 'upload-metadata': metadata } });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`creating the upload: ${created.status} ${await created.text()}`);
  const target = new URL(location, product.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const buffer = Buffer.allocUnsafeSlow(CHUNK_MB * MB);
  const fd = await fs.promises.open(file, 'r');
  try {
    let offset = 0;
    let body = '';
    while (offset < size) {
      const end = Math.min(size, offset + CHUNK_MB * MB);
      const { bytesRead } = await fd.read(buffer, 0, end - offset, offset);
      if (bytesRead !== end - offset) throw new Error(`short read at ${offset}`);
      const answer = await new Promise<{ status: number; offset: number; body: string }>((resolve, reject) => {
        const req = http.request(target, {
          method: 'PATCH',
          agent,
          headers: { ...tusHeaders, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(end - offset) },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, offset: Number(res.headers['upload-offset']), body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        // The buffer is read again only after the answer, which comes after the server got every byte.
        req.end(buffer.subarray(0, bytesRead));
      });
      if (answer.status !== 204 && answer.status !== 200) throw new Error(`PATCH at ${offset}: ${answer.status} ${answer.body}`);
      offset = answer.offset;
      body = answer.body;
    }
    return body;
  } finally {
    agent.destroy();
    await fd.close();
  }
}

/** Uploads `file` with the given client, sampling the server's memory every 50 ms meanwhile. */
async function timeUpload(client: UploadClient, pid: number, upload: Upload): Promise<UploadRun> {
  const size = fs.statSync(upload.file).size;
  const before = rssOf(pid);
  let peak = before;
  let samples = 0;
  const cpuBefore = cpuSecondsOf(pid);
  const clientBefore = process.cpuUsage();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
    samples += 1;
  }, 50);
  const t0 = performance.now();
  try {
    const answer = await (client === 'direct' ? sendDirect(upload) : sendWithTusJsClient(upload));
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, rssOf(pid));
    const { videoId } = JSON.parse(answer || '{}') as { videoId?: string };
    if (!videoId) throw new Error(`the upload finished without a video: ${answer}`);
    return { client, mbPerSecond: size / MB / seconds, before, peak, samples, serverCpu: cpuSecondsOf(pid) - cpuBefore, clientCpu: cpuTotal(process.cpuUsage(clientBefore)), videoId };
  } finally {
    clearInterval(sampler);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function main(): Promise<void> {
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-bench-upload-'));
  // First with its worker, which delivers the confirmation mails; then again on the same data
  // folder with RUN_WORKER=0 for the measurement.
  const setup = await startProduct({ LOG_MAIL_LINKS: '0' });
  let product: Product = setup;
  try {
    const admin = await signUp(setup, 'Uma Uploader');
    const athlete = await signUp(setup, 'Ava Athlete');
    execFileSync('npx', ['tsx', 'src/server/cli/admin.ts', 'grant', admin.email], {
      env: { ...process.env, DATA_DIR: setup.dataDir, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    admin.cookie = await passSecondFactor(setup, admin.cookie);
    await setup.stop(true);
    product = await startProduct({ RUN_WORKER: '0', LOG_MAIL_LINKS: '0' }, { dataDir: setup.dataDir });
    const pid = serverPid();
    const whoami = await request(`${product.url}/api/admin/whoami`, { headers: { cookie: admin.cookie } });
    if (whoami.status !== 200) throw new Error(`the admin is not an admin: ${whoami.status}`);

    const file = path.join(work, 'upload.mp4');
    const makeStart = performance.now();
    makeVideoFile(file, SIZE_MB * MB);
    const makeSeconds = (performance.now() - makeStart) / 1000;

    const copies: number[] = [];
    const bare: number[] = [];
    const uploads: UploadRun[] = [];
    // `sync` before each measurement: what the one before left to write back does not land on it.
    const settle = () => execFileSync('sync');
    for (let round = 0; round < ROUNDS; round++) {
      settle();
      copies.push(await timeCopy(file));
      settle();
      bare.push(await timeBareSocket(file));
      for (const client of CLIENTS) {
        settle();
        uploads.push(await timeUpload(client, pid, { product, cookie: admin.cookie, athleteId: athlete.userId, file }));
      }
    }
    settle();
    copies.push(await timeCopy(file));
    // The stored originals (RUN_WORKER=0 leaves them unprocessed) go with the data folder.

    const copy = median(copies);
    // The goal is judged on the first client (direct unless BENCH_CLIENT says otherwise).
    const ratioOf = (client: UploadClient) => median(uploads.filter((u) => u.client === client).map((u) => u.mbPerSecond)) / copy;
    const growth = Math.max(...uploads.map((u) => u.peak - u.before));
    const ratio = ratioOf(CLIENTS[0]!);
    const others = CLIENTS.slice(1).map((client) => `; with ${client} ${ratioOf(client).toFixed(2)}x`).join('');
    console.log(`Upload benchmark: node ${process.version}, ${os.cpus().length} CPUs; server pid ${pid} (PGlite, RUN_WORKER=0)`);
    console.log(
      `File: ${mb(fs.statSync(file).size)} (${fs.statSync(file).size} bytes), MP4 head + random bytes, made in ${makeSeconds.toFixed(1)} s; ` +
        `tus chunks of ${CHUNK_MB} MB; ${ROUNDS} round(s)`,
    );
    console.log(`  copy on disk (copyFile + fsync)  ${copies.map((c) => c.toFixed(0)).join(', ')} MB/s -> median ${copy.toFixed(0)} MB/s`);
    const ceiling = median(bare) / copy;
    console.log(`  bare socket into a file          ${bare.map((c) => c.toFixed(0)).join(', ')} MB/s -> ${ceiling.toFixed(2)}x the copy (no HTTP: what any Node server could reach here)`);
    for (const u of uploads) {
      console.log(
        `  tus upload, ${u.client.padEnd(13)}     ${u.mbPerSecond.toFixed(0)} MB/s; server RSS ${mb(u.before)} before, ` +
          `peak ${mb(u.peak)} (${u.samples} samples), growth ${mb(u.peak - u.before)}; server CPU ${u.serverCpu.toFixed(2)} s, client CPU ${u.clientCpu.toFixed(2)} s`,
      );
    }
    const met = ratio >= GOAL_RATIO && growth <= GOAL_GROWTH_MB * MB;
    console.log(
      `RESULT upload/copy throughput ${ratio.toFixed(2)}x with ${CLIENTS[0]} (goal >= ${GOAL_RATIO}x), server memory growth ${mb(growth)} ` +
        `(goal <= ${GOAL_GROWTH_MB} MB): goal ${met ? 'MET' : 'NOT MET'}${others}; bare socket ${ceiling.toFixed(2)}x, upload/bare ${(ratio / ceiling).toFixed(2)}; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await product.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBenchmark(main);
