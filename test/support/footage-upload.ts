// Game footage uploaded as an admin's dialog does it: tus to /api/admin/footage-uploads.
import fs from 'node:fs';
import * as tus from 'tus-js-client';
import type { TestApp } from './app';

/** Uploads a footage file for a game and camera; resolves with the new footage row's id. */
export function uploadFootage(app: TestApp, cookie: string, file: string, metadata: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    new tus.Upload(fs.readFileSync(file), {
      endpoint: `${app.url}/api/admin/footage-uploads`,
      chunkSize: 4 * 1024 * 1024,
      retryDelays: [],
      metadata,
      headers: { cookie, origin: app.origin },
      onSuccess: ({ lastResponse }) => resolve((JSON.parse(lastResponse.getBody()) as { footageId: string }).footageId),
      onError: reject,
    }).start();
  });
}
