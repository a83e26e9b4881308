// The background work, assembled at the top: the handler of every job type, each from its own
// domain folder, and the periodic checks. Inside the server (`npm start`) or alone
// (`npm run worker`). jobs/ itself (the queue, the job types) knows no domain.
//
// The queue refuses to work unless `jobHandlers` names exactly one handler per declared type
// (jobs/definitions.ts). The periodic check puts back on the queue any work whose job was never
// stored, purges face indexes past their retention period, and tells the team what needs them.
import type { AppDeps } from './deps';
import { findFaceInClip, requeueFaceSearches } from './faces/clip-search';
import { indexFootage, purgeExpiredIndexes } from './faces/indexing';
import { eraseUnconfirmedAccounts } from './accounts/erasure';
import { deleteExpiredFootage } from './footage/retention';
import { matchRequestJob } from './faces/matching';
import { syncGameJob } from './footage/sync';
import type { JobHandlers } from './jobs/queue';
import { deliverMail } from './mail/jobs';
import { logger } from './observability/logger';
import { createLocalProvider, deliverLocalEvent, deliverLocalRefund, expireLocalSession } from './payments/local-provider';
import { renderReelJob, requeueStuckRenders } from './reels/render-job';
import { processVideo, requeueStuckVideos } from './videos/processing';
import { ownMediaChildren, removeLeftovers } from './jobs/leftovers';
import { runTeamChecks } from './team/checks';

export function jobHandlers(deps: AppDeps): JobHandlers {
  return {
    'mail.deliver': deliverMail(deps.mailTransport),
    'media.process-video': processVideo(deps),
    'payments.local-deliver-event': deliverLocalEvent(deps),
    'payments.local-deliver-refund': deliverLocalRefund(deps),
    'payments.local-expire': expireLocalSession(createLocalProvider(deps)),
    'faces.index-footage': indexFootage(deps),
    'faces.match-request': matchRequestJob(deps),
    'footage.sync-game': syncGameJob(deps),
    'faces.find-in-clip': findFaceInClip(deps),
    'reels.render': renderReelJob(deps),
  };
}

const RECOVERY_EVERY_MS = 5 * 60 * 1000;
const timers = new WeakMap<AppDeps, NodeJS.Timeout>();

export async function startWorker(deps: AppDeps): Promise<void> {
  // A worker killed on this machine may have left ffmpeg children and work folders: gone first.
  ownMediaChildren();
  await removeLeftovers().catch((error: Error) => logger.warn({ err: error.message }, 'leftovers of stopped workers could not be removed'));
  await deps.jobs.work(jobHandlers(deps));
  const localCheckout = createLocalProvider(deps);
  const recover = () =>
    Promise.all([requeueStuckVideos(deps), requeueStuckRenders(deps), requeueFaceSearches(deps), localCheckout.resumeDeliveries(), runTeamChecks(deps), purgeExpiredIndexes(deps), deleteExpiredFootage(deps), eraseUnconfirmedAccounts(deps, deps.config.unconfirmedAccountDays)]).catch((error: Error) =>
      logger.error({ err: error.message }, 'job recovery check failed'),
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
