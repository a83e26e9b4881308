// The face worker threads of this process: started on first use, one task each at a time, a
// thread that dies replaced. Face indexing uses every thread (one stretch of footage each); a
// family's photo check takes a free one, but never the last one footage could use: checks run on
// at most size - 1 threads, and footage waiting goes before checks waiting (issue 33, finding 3),
// so no number of families' checks can hold indexing back.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FaceTaskFailure, WorkerTask } from './types';

interface Job {
  id: number;
  task: WorkerTask;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (seconds: number) => void;
}

/** A task that failed in its thread; `kind` says why when the caller can act on it. */
export class FaceTaskError extends Error {
  constructor(
    message: string,
    readonly kind?: FaceTaskFailure,
  ) {
    super(message);
    this.name = 'FaceTaskError';
  }
}

export interface FacePool {
  readonly size: number;
  /**
   * Runs a task on the first free thread. Aborting `signal` stops it (its ffmpeg is killed); the
   * promise settles only once the thread has let go of it, so the thread is free again by then.
   */
  run<T>(task: WorkerTask, onProgress?: (seconds: number) => void, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
}

/** Which waiting job a free thread takes: footage first; a check only while fewer than `size - 1` run (one with a single thread). */
export function nextJobIndex(queue: Array<{ task: Pick<WorkerTask, 'op'> }>, checksRunning: number, size: number): number {
  const footage = queue.findIndex((j) => j.task.op !== 'analyze-photo');
  if (footage >= 0) return footage;
  return checksRunning < Math.max(1, size - 1) ? queue.findIndex((j) => j.task.op === 'analyze-photo') : -1;
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
    worker.on('message', (message: { id: number; progress?: number; result?: unknown; error?: string; kind?: FaceTaskFailure }) => {
      const job = busy.get(worker);
      if (!job || job.id !== message.id) return;
      if (message.progress !== undefined) return job.onProgress?.(message.progress);
      busy.delete(worker);
      idle.push(worker);
      if (message.error !== undefined) job.reject(new FaceTaskError(message.error, message.kind));
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
      const checksRunning = [...busy.values()].filter((j) => j.task.op === 'analyze-photo').length;
      const next = nextJobIndex(queue, checksRunning, size);
      if (next < 0) break;
      if (!idle.length && all.size < size) spawn();
      const worker = idle.shift();
      if (!worker) return;
      if (!all.has(worker)) continue;
      const [job] = queue.splice(next, 1) as [Job];
      busy.set(worker, job);
      worker.ref();
      worker.postMessage({ id: job.id, task: job.task });
    }
    for (const worker of idle) worker.unref();
  }

  return {
    size,
    run<T>(task: WorkerTask, onProgress?: (seconds: number) => void, signal?: AbortSignal) {
      if (closed) return Promise.reject(new Error('The face workers are closed.'));
      if (signal?.aborted) return Promise.reject(new FaceTaskError('The task was stopped.', 'stopped'));
      return new Promise<T>((resolve, reject) => {
        const job: Job = { id: nextId++, task, resolve: resolve as (v: unknown) => void, reject, onProgress };
        queue.push(job);
        signal?.addEventListener(
          'abort',
          () => {
            const waiting = queue.indexOf(job);
            if (waiting >= 0) {
              queue.splice(waiting, 1);
              return reject(new FaceTaskError('The task was stopped.', 'stopped'));
            }
            // Running: the thread stops it and answers, which settles the promise.
            for (const [worker, running] of busy) if (running === job) worker.postMessage({ cancel: job.id });
          },
          { once: true },
        );
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
