// A real S3-compatible server (s3rver) on loopback, keeping its objects in a temporary folder.
//
// It runs in a child process started with --openssl-legacy-provider: s3rver 3.7 builds
// ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node 17+) only has in its
// legacy provider, so without it any listing longer than one page (1000 keys) fails with
// InternalError. A child also keeps s3rver's Koa, winston, etc. out of the test process.
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { S3Config } from '../../src/server/config';
import { freePort } from './ports';

export interface TestS3 {
  config: S3Config;
  /** Where s3rver keeps its files. */
  directory: string;
  close(): Promise<void>;
}

// Runs in the child: starts s3rver with the bucket made, says "ready", stops when stdin closes.
const CHILD = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env.S3RVER_PORT),
  directory: process.env.S3RVER_DIR,
  silent: true,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then(
  () => process.stdout.write('ready\\n'),
  (err) => { console.error(err); process.exit(1); },
);
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      S3RVER_MODULE: createRequire(import.meta.url).resolve('s3rver'),
      S3RVER_PORT: String(port),
      S3RVER_DIR: directory,
      S3RVER_BUCKET: bucket,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start in 15 s\n${stderr}`)), 15_000);
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready\n')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited with ${code}\n${stderr}`));
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    await fsp.rm(directory, { recursive: true, force: true });
    throw err;
  }

  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      // s3rver's built-in account; it checks request signatures against this pair.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      region: 'us-east-1',
      forcePathStyle: true,
    },
    directory,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await fsp.rm(directory, { recursive: true, force: true });
    },
  };
}
