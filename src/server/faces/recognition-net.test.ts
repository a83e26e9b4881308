// The descriptor net on ONNX Runtime against face-api's own FaceRecognitionNet on TensorFlow.js,
// on real faces of a group photo that ships with face-api.
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../../test/support/face-footage';
import { faceDistance, loadFaceEngine } from './engine';
import { createRecognitionSession, RECOGNITION_SIZE } from './recognition-net';

const require = createRequire(import.meta.url);

describe('the descriptor net on ONNX Runtime', () => {
  it('gives face-api’s descriptors for the same faces, within rounding', { timeout: 60_000 }, async () => {
    await loadFaceEngine();
    const tf = require('@tensorflow/tfjs');
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const file = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample5.jpg');
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const photo = tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
    // Three faces of different sizes and shapes (not square), and one mirrored.
    const faces = (['bea', 'cleo', 'dana'] as const).map((person) => {
      const [x, y, w, h] = PEOPLE[person].box;
      return tf.slice(photo, [y, x, 0], [h, w + 7, 3]);
    });
    faces.push(tf.reverse(faces[0], 1));
    const batch = (await faceapi.toNetInput(faces)).toBatchTensor(RECOGNITION_SIZE, true);
    const theirs = faceapi.nets.faceRecognitionNet.forwardInput(await faceapi.toNetInput(faces));
    const expected = (await theirs.data()) as Float32Array;
    const session = await createRecognitionSession(faceapi.nets.faceRecognitionNet.params);
    const ours = await session.run((await batch.data()) as Float32Array, faces.length);
    for (const t of [photo, batch, theirs, ...faces]) t.dispose();

    expect(ours).toHaveLength(4);
    let largest = 0;
    ours.forEach((descriptor, i) => {
      expect(descriptor).toHaveLength(128);
      for (let k = 0; k < 128; k++) largest = Math.max(largest, Math.abs(descriptor[k]! - expected[i * 128 + k]!));
    });
    expect(largest).toBeLessThan(1e-4);
    // Different faces stay apart: the net was not reduced to a constant.
    expect(faceDistance(ours[0]!, ours[1]!)).toBeGreaterThan(0.3);
  });
});
