// What a worker killed half-way leaves behind (issue 32): its ffmpeg children, re-parented and
// still reading, and its temporary folders. Every media child carries its worker's process id in
// its environment (MEDIA_OWNER_ENV) and every work folder has it in its name, so a worker that
// starts on the same machine can tell those of a dead worker from those of a live one and remove
// them. Linux only (/proc); elsewhere there is nothing to read and nothing is removed.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { alive } from '../db/lock';
import { logger } from '../observability/logger';

/** The environment variable naming the process that started a media child. */
export const MEDIA_OWNER_ENV = 'GIOT_MEDIA_OWNER';
const FOLDER = /^giot-[a-z-]+?-(\d+)-/;

/** Marks this process as the owner of the media children it starts from now on (inherited by its threads and children). */
export function ownMediaChildren(): void {
  process.env[MEDIA_OWNER_ENV] = String(process.pid);
}

/** A work folder in the temp directory, named with its kind and this process's id. */
export function workFolder(kind: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `giot-${kind}-${process.pid}-`));
}

/** The media children and work folders on this machine, each with the process that made it. */
async function owned(tmp: string): Promise<{ processes: Array<{ pid: number; owner: number }>; folders: Array<{ path: string; owner: number }> }> {
  const processes: Array<{ pid: number; owner: number }> = [];
  for (const entry of await fs.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await fs.readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    const owner = Number(environ.split('\0').find((v) => v.startsWith(`${MEDIA_OWNER_ENV}=`))?.slice(MEDIA_OWNER_ENV.length + 1));
    if (owner) processes.push({ pid: Number(entry), owner });
  }
  const folders: Array<{ path: string; owner: number }> = [];
  for (const name of await fs.readdir(tmp).catch(() => [] as string[])) {
    const owner = Number(FOLDER.exec(name)?.[1]);
    if (owner) folders.push({ path: path.join(tmp, name), owner });
  }
  return { processes, folders };
}

/** What the process `owner` left running and on disk (the trust suite checks a killed worker left nothing). */
export async function leftoversOf(owner: number, tmp = os.tmpdir()): Promise<{ processes: number[]; folders: string[] }> {
  const all = await owned(tmp);
  return { processes: all.processes.filter((p) => p.owner === owner).map((p) => p.pid), folders: all.folders.filter((f) => f.owner === owner).map((f) => f.path) };
}

/** Kills the media children and removes the work folders of processes that are gone; returns what it removed. */
export async function removeLeftovers(tmp = os.tmpdir()): Promise<{ processes: number; folders: number }> {
  let processes = 0;
  let folders = 0;
  const all = await owned(tmp);
  for (const child of all.processes) {
    if (alive(child.owner)) continue;
    try {
      process.kill(child.pid, 'SIGKILL');
      processes++;
    } catch {
      // gone meanwhile
    }
  }
  for (const folder of all.folders) {
    if (alive(folder.owner)) continue;
    await fs.rm(folder.path, { recursive: true, force: true }).catch(() => {});
    folders++;
  }
  if (processes || folders) logger.warn({ processes, folders }, 'removed what a stopped worker left behind');
  return { processes, folders };
}
