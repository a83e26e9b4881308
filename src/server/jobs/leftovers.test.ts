// A worker starting on a machine where another was killed removes what that one left: its media
// children, re-parented and still running, and its work folders; a live process's are kept.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEDIA_OWNER_ENV, removeLeftovers } from './leftovers';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-leftovers-test'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A process id that was used and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('leftovers of a stopped worker', () => {
  it('kills the children of a dead worker and removes its folders, and leaves a live one\'s alone', async () => {
    const dead = deadPid();
    const orphan = spawn('sleep', ['60'], { env: { ...process.env, [MEDIA_OWNER_ENV]: String(dead) }, detached: true, stdio: 'ignore' });
    const kept = spawn('sleep', ['60'], { env: { ...process.env, [MEDIA_OWNER_ENV]: String(process.pid) }, detached: true, stdio: 'ignore' });
    const ended = new Promise((resolve) => orphan.on('exit', (_code, signal) => resolve(signal)));
    fs.mkdirSync(path.join(tmp, `giot-render-${dead}-abc123`));
    fs.writeFileSync(path.join(tmp, `giot-render-${dead}-abc123`, 'part.mp4'), 'x');
    fs.mkdirSync(path.join(tmp, `giot-footage-${process.pid}-def456`));
    fs.mkdirSync(path.join(tmp, 'giot-faces-xyz789'));
    try {
      const removed = await removeLeftovers(tmp);
      // At least this one: any other child of a dead worker on this machine goes too.
      expect(removed.processes).toBeGreaterThanOrEqual(1);
      expect(removed.folders).toBe(1);
      expect(await ended).toBe('SIGKILL');
      expect(kept.exitCode).toBeNull();
      expect(fs.readdirSync(tmp).sort()).toEqual(['giot-faces-xyz789', `giot-footage-${process.pid}-def456`]);
    } finally {
      orphan.kill('SIGKILL');
      kept.kill('SIGKILL');
    }
  });
});
