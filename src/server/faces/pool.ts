// The face worker threads of this process: started on first use, one task each at a time, a
// thread that dies replaced. Face indexing uses every thread (one stretch of footage each); a
// reference photo check takes whichever is free first.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkerTask } from './types';

interface Job {
  id: number;
  task: WorkerTask;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (seconds: number) => void;
}

export interface FacePool {
  readonly size: number;
  run<T>(task: WorkerTask, onProgress?: (seconds: number) => void): Promise<T>;
  close(): Promise<void>;
}

export function createFacePool(size = Math.max(1, Math.min(2, os.availableParallelism()))): FacePool {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      workerData: { module: new URL('./worker.ts', import.meta.url).href },
    });
    worker.unref();
    worker.on('message', (message: { id: number; progress?: number; result?: unknown; error?: string }) => {
      const job = busy.get(worker);
      if (!job || job.id !== message.id) return;
      if (message.progress !== undefined) return job.onProgress?.(message.progress);
      busy.delete(worker);
      idle.push(worker);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.result);
      pump();
    });
    worker.on('error', (error) => {
      const job = busy.get(worker);
      busy.delete(worker);
      all.delete(worker);
      job?.reject(error);
      pump();
    });
    worker.on('exit', () => {
      all.delete(worker);
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(new Error('The face worker stopped.'));
      if (!closed) pump();
    });
    all.add(worker);
    idle.push(worker);
  };

  function pump() {
    while (queue.length && !closed) {
      if (!idle.length && all.size < size) spawn();
      const worker = idle.shift();
      if (!worker) return;
      if (!all.has(worker)) continue;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.ref();
      worker.postMessage({ id: job.id, task: job.task });
    }
    for (const worker of idle) worker.unref();
  }

  return {
    size,
    run<T>(task: WorkerTask, onProgress?: (seconds: number) => void) {
      if (closed) return Promise.reject(new Error('The face workers are closed.'));
      return new Promise<T>((resolve, reject) => {
        queue.push({ id: nextId++, task, resolve: resolve as (v: unknown) => void, reject, onProgress });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('The face workers are closed.'));
      await Promise.all([...all].map((w) => w.terminate()));
    },
  };
}
