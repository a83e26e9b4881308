// Scenario 2: an API instance killed (SIGKILL) in the middle of a resumable footage upload. The
// admin's upload continues through the other instance from where it stopped, and the stored file
// is the source byte for byte. This works because both instances share DATA_DIR (the unfinished
// upload and its .json are in DATA_DIR/footage-uploads): the configuration under test.
import { eq } from 'drizzle-orm';
import { footage } from '../../src/server/db/schema';
import { FOOTAGE_PATH, plainGame, seconds, sha256, storedSha256, uploadFootage, waitFor } from './fixtures';
import { outcome, type Scenario } from './scenario';
import { seedAdmin } from './seed';
import { heal } from './topology';

export const apiKillUpload: Scenario = {
  name: 'api-kill-upload',
  timeoutMs: { short: 4 * 60_000, full: 6 * 60_000 },
  async run(t, { log, short }) {
    const failures: string[] = [];
    const admin = await seedAdmin(t);
    const file = await plainGame(short ? 20 : 40);
    const [first, second] = t.apis;
    let uploadUrl = '';
    let sentBeforeKill = 0;
    let total = 0;
    // Small chunks: the kill lands between and inside PATCH requests.
    const firstTry = uploadFootage(t, first.url!, admin, file, {
      chunkSize: 256 * 1024,
      onUrl: (url) => (uploadUrl = url),
      onProgress: (sent, size) => {
        sentBeforeKill = sent;
        total = size;
      },
    });
    firstTry.done.catch(() => {});
    await waitFor('the upload half-way', async () => total > 0 && sentBeforeKill > total * 0.4, 120_000, 20);
    const killedAt = Date.now();
    await first.kill();
    await firstTry.abort().catch(() => {});
    log(`killed ${first.name} at ${Math.round((sentBeforeKill / total) * 100)}% (${uploadUrl})`);

    // The same upload, continued through the other instance: tus asks it where the upload stands.
    const id = uploadUrl.split('/').pop()!;
    const offsetRes = await fetch(`${second.url}${FOOTAGE_PATH}/${id}`, { method: 'HEAD', headers: { cookie: admin.cookie, origin: t.origin, 'tus-resumable': '1.0.0' } });
    const resumedAt = Number(offsetRes.headers.get('upload-offset'));
    if (offsetRes.status !== 200 || !(resumedAt > 0)) failures.push(`the other instance does not know the upload (HEAD ${offsetRes.status}, offset ${resumedAt})`);
    const { footageId } = await uploadFootage(t, second.url!, admin, file, { chunkSize: 256 * 1024, uploadUrl: `${second.url}${FOOTAGE_PATH}/${id}` }).done;
    const recovery = Date.now() - killedAt;
    await heal(t);

    const [row] = await t.deps.db.select().from(footage).where(eq(footage.id, footageId));
    const source = sha256(file);
    const stored = row ? await storedSha256(t, row.sourceKey) : null;
    if (!row) failures.push('no footage row');
    if (stored !== source) failures.push(`stored file ${stored?.slice(0, 12) ?? 'missing'} is not the source ${source.slice(0, 12)}`);
    return outcome(failures, `resumed_at=${Math.round((resumedAt / total) * 100)}% size=${total} recovery=${seconds(recovery)} sha256_match=${stored === source}`);
  },
};
