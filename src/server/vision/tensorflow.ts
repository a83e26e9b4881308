// TensorFlow.js on its WebAssembly backend, set up once per thread for every model that runs on
// it (face-api's nets, the person detector). The .wasm files are read from the backend's own
// package folder: the default would fetch them from a CDN.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/* eslint-disable @typescript-eslint/no-explicit-any -- tfjs is loaded untyped, at run time */
export type Tf = any;

let loading: Promise<Tf> | null = null;

export function loadTensorflow(): Promise<Tf> {
  loading ??= (async () => {
    const tf: Tf = require('@tensorflow/tfjs');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + path.sep);
    await tf.setBackend('wasm');
    await tf.ready();
    return tf;
  })();
  return loading;
}
