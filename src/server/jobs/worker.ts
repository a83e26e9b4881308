// Running the background jobs: inside the server (`npm start`) or alone (`npm run worker`). Also
// the periodic check that puts back on the queue any work whose job was never stored, and the
// purge of face indexes past their retention period.
import type { AppDeps } from '../http/deps';
import { requeueFaceSearches } from '../faces/clip-search';
import { purgeExpiredIndexes } from '../faces/indexing';
import { createLocalProvider } from '../payments/local-provider';
import { requeueStuckRenders } from '../reels/render-job';
import { requeueStuckVideos } from '../videos/processing';
import { jobHandlers } from './handlers';

const RECOVERY_EVERY_MS = 5 * 60 * 1000;
const timers = new WeakMap<AppDeps, NodeJS.Timeout>();

export async function startWorker(deps: AppDeps): Promise<void> {
  await deps.jobs.work(jobHandlers(deps));
  const localCheckout = createLocalProvider(deps);
  const recover = () =>
    Promise.all([requeueStuckVideos(deps), requeueStuckRenders(deps), requeueFaceSearches(deps), localCheckout.resumeDeliveries(), purgeExpiredIndexes(deps)]).catch((error: Error) =>
      console.error('[jobs] recovery check failed:', error.message),
    );
  void recover();
  const timer = setInterval(recover, RECOVERY_EVERY_MS);
  timer.unref();
  timers.set(deps, timer);
}

export async function stopWorker(deps: AppDeps): Promise<void> {
  clearInterval(timers.get(deps));
  await deps.jobs.stop();
}
