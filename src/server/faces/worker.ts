// A face worker thread: loads the models once, then runs the tasks the pool sends it, one at a
// time. Models and frames stay here; only small results (boxes, descriptors, thumbnails) go back.
import { parentPort } from 'node:worker_threads';
import { loadFaceEngine } from './engine';
import { indexSegment } from './index-segment';
import type { PhotoFace, WorkerTask } from './types';

const port = parentPort!;

async function analyzePhoto(rgb: Uint8Array, width: number, height: number): Promise<PhotoFace[]> {
  const engine = await loadFaceEngine();
  const frame = { data: rgb, width, height };
  // A close-up face scores low with the SSD detector; 0.3 still finds no face on an empty picture.
  const found = await engine.detectCareful(frame, 0.3);
  const faces: PhotoFace[] = [];
  for (const face of found) {
    const described = await engine.describe(frame, face);
    faces.push({
      box: { x: face.x, y: face.y, w: face.w, h: face.h },
      score: face.score,
      sharpness: described.sharpness,
      frontalness: described.frontalness,
      descriptor: Array.from(described.descriptor),
    });
  }
  return faces;
}

port.on('message', async (message: { id: number; task: WorkerTask }) => {
  const { id, task } = message;
  try {
    const engine = await loadFaceEngine();
    const result =
      task.op === 'index-segment'
        ? await indexSegment(engine, task.segment, task.settings, (seconds) => port.postMessage({ id, progress: seconds }))
        : await analyzePhoto(task.rgb, task.width, task.height);
    port.postMessage({ id, result });
  } catch (error) {
    port.postMessage({ id, error: (error as Error).message || String(error) });
  }
});
