// Shot cuts (issue 32): a cut between two shots of the same light is found, though the colours
// hardly change; a camera panning over a real room, and a grainy court with players moving, are
// one shot.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { frames } from './index-segment';
import { colourChange, isShotCut, shotSignature, SHOT_CUT_CHANGE, type ShotSignature } from './shot-cuts';

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-shot-cuts-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const PHOTO = path.resolve(import.meta.dirname, '../../../../shared/faces-calibration/bbt1.jpg');

/** The cuts between the samples of a file, 2 a second, with the colour change at each sample. */
async function cutsOf(file: string, width: number, height: number) {
  const cuts: number[] = [];
  const changes: number[] = [];
  let previous: ShotSignature | null = null;
  let k = 0;
  for await (const frame of frames({ file, startS: 0, endS: 100, width, height, everyFrame: true }, 2)) {
    const signature = shotSignature(frame);
    if (previous) {
      changes.push(colourChange(previous, signature));
      if (isShotCut(previous, signature)) cuts.push(k / 2);
    }
    previous = signature;
    k++;
  }
  return { cuts, changes };
}

describe('shot cuts', () => {
  it('finds a cut between two views of one room in the same light, which the colours alone miss', async () => {
    // A real photo of a room: a camera panning over its left side for 3 s, then another camera
    // panning over its right side.
    const file = path.join(work, 'same-light.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', '6', '-i', PHOTO, '-filter_complex',
      "[0]split[a][b];[a]crop=560:315:x='20+30*t':y=100,trim=duration=3,setpts=PTS-STARTPTS[a1];[b]crop=560:315:x='700+30*(t-3)':y=350,trim=start=3:duration=3,setpts=PTS-STARTPTS[b1];[a1][b1]concat=n=2:v=1,scale=640:360,format=yuv420p[v]",
      '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', file,
    ]);
    const { cuts, changes } = await cutsOf(file, 640, 360);
    expect(cuts).toEqual([3]);
    // The colours at the cut changed less than the colour rule needs.
    expect(changes[5]).toBeLessThan(SHOT_CUT_CHANGE);
  }, 60_000);

  it('a grainy court with players moving across it is one shot', async () => {
    const file = path.join(work, 'court.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x3a5f3a:s=640x360:r=30:d=6', '-filter_complex',
      "[0]noise=alls=14:allf=t,drawbox=x='40+60*t':y=120:w=40:h=110:color=white:t=fill,drawbox=x='560-50*t':y=150:w=40:h=110:color=0x202080:t=fill,format=yuv420p[v]",
      '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', file,
    ]);
    expect((await cutsOf(file, 640, 360)).cuts).toEqual([]);
  }, 60_000);
});
