// NanoDet on ONNX Runtime (people/nanodet-onnx.ts) gives what the package's TensorFlow.js graph
// gives, on a real photograph, for a region of the frame's own shape and a square one.
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BGR_MEAN, BGR_STD, createNanoDetSession, cropBytes, loadNanoDetGraph, NANODET_INPUT } from './nanodet';

const PHOTO = path.resolve(import.meta.dirname, '../../../../shared/faces-calibration/bbt1.jpg');

describe('NanoDet on ONNX Runtime', () => {
  it('gives the TensorFlow.js graph’s scores and box distributions within 1e-3', { timeout: 60_000 }, async () => {
    const { data, info } = await sharp(PHOTO).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const frame = { data: new Uint8Array(data), width: info.width, height: info.height };
    const session = await createNanoDetSession();
    const { tf, model } = await loadNanoDetGraph();
    for (const region of [{ x: 0, y: 0, w: frame.width, h: frame.height }, { x: 300, y: 100, w: 600, h: 600 }]) {
      const bytes = cropBytes(frame, region);
      const onnx = await session.run(bytes, region.h, region.w);
      const reference = tf.tidy(() => {
        const input = tf.image
          .resizeBilinear(tf.tensor3d(bytes, [region.h, region.w, 3], 'int32').toFloat(), [NANODET_INPUT, NANODET_INPUT])
          .reverse(2)
          .sub(tf.tensor1d(BGR_MEAN))
          .div(tf.tensor1d(BGR_STD))
          .transpose([2, 0, 1])
          .expandDims(0);
        const outputs = model.execute(input, model.outputs.map((o: { name: string }) => o.name));
        return Object.fromEntries(model.outputs.map((o: { name: string }, k: number) => [o.name.replace(/:0$/, ''), outputs[k]]));
      });
      expect(Object.keys(onnx).sort()).toEqual(Object.keys(reference).sort());
      let largest = 0;
      let personScores = 0;
      for (const [name, tensor] of Object.entries(reference) as Array<[string, { shape: number[]; dataSync(): Float32Array }]>) {
        expect(onnx[name]!.dims, name).toEqual(tensor.shape);
        const want = tensor.dataSync();
        const got = onnx[name]!.data;
        for (let i = 0; i < want.length; i++) largest = Math.max(largest, Math.abs(want[i]! - got[i]!));
        if (tensor.shape[2] === 80) for (let i = 0; i < want.length; i += 80) if (want[i]! > 0.4) personScores++;
      }
      tf.dispose(Object.values(reference));
      expect(largest).toBeLessThan(1e-3);
      // The photo has people in it: the comparison is not between two empty outputs.
      expect(personScores).toBeGreaterThan(3);
    }
  });
});
