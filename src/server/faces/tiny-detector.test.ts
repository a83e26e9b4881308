// The detector on ONNX Runtime against face-api's own TinyFaceDetector on TensorFlow.js, on a
// real group photo that ships with face-api.
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../../test/support/face-footage';
import { loadFaceEngine } from './engine';
import { createTinyDetectorSession } from './tiny-detector';
import { iou } from './tracker';

const require = createRequire(import.meta.url);

async function samplePhoto(n: number) {
  const file = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', `sample${n}.jpg`);
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

describe('the face detector on ONNX Runtime', () => {
  it('gives the same grid as face-api’s network on the same resized photo', { timeout: 60_000 }, async () => {
    await loadFaceEngine();
    const tf = require('@tensorflow/tfjs');
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const photo = await samplePhoto(5);
    const [width, height] = [640, 416];
    const session = await createTinyDetectorSession(faceapi.nets.tinyFaceDetector.params);
    const ours = await session.run(photo, width, height);

    const theirs = tf.tidy(() => {
      const resized = tf.image.resizeBilinear(tf.tensor4d(photo.data, [1, photo.height, photo.width, 3], 'int32').toFloat(), [height, width]);
      const normalized = tf.div(tf.sub(resized, tf.tensor1d([117.001, 114.697, 97.404])), 255);
      return faceapi.nets.tinyFaceDetector.runMobilenet(normalized, faceapi.nets.tinyFaceDetector.params);
    });
    expect([ours.rows, ours.cols, ours.grid.length / ours.rows / ours.cols]).toEqual(theirs.shape.slice(1));
    const expected = theirs.dataSync() as Float32Array;
    theirs.dispose();
    let largest = 0;
    for (let i = 0; i < expected.length; i++) largest = Math.max(largest, Math.abs(ours.grid[i]! - expected[i]!));
    expect(largest).toBeLessThan(1e-3);
  });

  it('finds the known faces of a group photo at the frame’s own shape', { timeout: 60_000 }, async () => {
    const engine = await loadFaceEngine();
    const photo = await samplePhoto(5);
    const faces = await engine.detectFast(photo, [1280 / photo.width], 0.5);
    for (const person of ['bea', 'cleo', 'dana'] as const) {
      const [x, y, w, h] = PEOPLE[person].box;
      expect(faces.some((f) => iou(f, { x, y, w, h }) > 0.4), person).toBe(true);
    }
  });
});
