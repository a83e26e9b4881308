// The handler of every job type, each from its own domain folder. The queue refuses to work
// unless this names exactly one handler per declared type (definitions.ts).
import type { AppDeps } from '../http/deps';
import { findFaceInClip } from '../faces/clip-search';
import { indexFootage } from '../faces/indexing';
import { matchRequestJob } from '../faces/matching';
import { syncGameJob } from '../footage/sync';
import { deliverMail } from '../mail/jobs';
import { createLocalProvider, deliverLocalEvent, expireLocalSession } from '../payments/local-provider';
import { renderReelJob } from '../reels/render-job';
import { processVideo } from '../videos/processing';
import type { JobHandlers } from './queue';

export function jobHandlers(deps: AppDeps): JobHandlers {
  return {
    'mail.deliver': deliverMail(deps.mailTransport),
    'media.process-video': processVideo(deps),
    'payments.local-deliver-event': deliverLocalEvent(deps),
    'payments.local-expire': expireLocalSession(createLocalProvider(deps)),
    'faces.index-footage': indexFootage(deps),
    'faces.match-request': matchRequestJob(deps),
    'footage.sync-game': syncGameJob(deps),
    'faces.find-in-clip': findFaceInClip(deps),
    'reels.render': renderReelJob(deps),
  };
}
