// A face worker thread: loads the models once, then runs the tasks the pool sends it, one at a
// time. Models and frames stay here; only small results (boxes, descriptors, thumbnails) go back.
import { parentPort } from 'node:worker_threads';
import { loadFaceEngine } from './engine';
import { DecodeStoppedError, FootageDecodeError, indexSegment } from './index-segment';
import type { FaceTaskFailure, PhotoFace, WorkerTask } from './types';

const port = parentPort!;

async function analyzePhoto(rgb: Uint8Array, width: number, height: number): Promise<PhotoFace[]> {
  const engine = await loadFaceEngine();
  const frame = { data: rgb, width, height };
  // A close-up face scores low with the SSD detector; 0.3 still finds no face on an empty picture.
  let found = await engine.detectCareful(frame, 0.3);
  let target = frame;
  if (!found.length) {
    // A headshot cropped to the face alone (the face fills the picture) is missed by the SSD
    // detector, which learnt faces with some surroundings: look again with a plain border around
    // it. On the calibration photos (150 px crops) this found all 40 faces; 5 were missed before.
    target = withBorder(frame, Math.max(width, height));
    found = await engine.detectCareful(target, 0.3);
  }
  const faces: PhotoFace[] = [];
  // Boxes are given in the photo's own pixels, whichever picture found them.
  const border = (target.width - width) / 2;
  for (const face of found) {
    const described = await engine.describe(target, face);
    faces.push({
      box: { x: face.x - border, y: face.y - border, w: face.w, h: face.h },
      score: face.score,
      sharpness: described.sharpness,
      frontalness: described.frontalness,
      descriptor: Array.from(described.descriptor),
    });
  }
  return faces;
}

/** The frame centred on a mid-grey canvas with `border` pixels on every side. */
function withBorder(frame: { data: Uint8Array; width: number; height: number }, border: number) {
  const width = frame.width + 2 * border;
  const height = frame.height + 2 * border;
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = 0; y < frame.height; y++) data.set(frame.data.subarray(y * frame.width * 3, (y + 1) * frame.width * 3), ((y + border) * width + border) * 3);
  return { data, width, height };
}

/** The task running here, stoppable by the pool (pool.ts `run` with a signal). */
const running = new Map<number, AbortController>();

port.on('message', async (message: { id: number; task: WorkerTask } | { cancel: number }) => {
  if ('cancel' in message) return running.get(message.cancel)?.abort();
  const { id, task } = message;
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const engine = await loadFaceEngine();
    const result =
      task.op === 'index-segment'
        ? await indexSegment(engine, task.segment, task.settings, (seconds) => port.postMessage({ id, progress: seconds }), controller.signal)
        : await analyzePhoto(task.rgb, task.width, task.height);
    port.postMessage({ id, result });
  } catch (error) {
    const kind: FaceTaskFailure | undefined = error instanceof FootageDecodeError ? 'undecodable' : error instanceof DecodeStoppedError ? 'stopped' : undefined;
    port.postMessage({ id, error: (error as Error).message || String(error), kind });
  } finally {
    running.delete(id);
  }
});
