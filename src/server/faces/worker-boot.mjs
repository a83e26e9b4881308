// Starts a face worker thread: the server runs TypeScript through tsx, and a worker thread does
// not inherit its loader, so the thread registers it before importing the worker module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
