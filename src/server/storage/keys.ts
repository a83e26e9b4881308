// Storage keys, built here only, from ids the server trusts. Layout follows the spec's buckets:
// {bucket}/{userId}/{filename}. A random part in each name means a replaced file gets a new URL,
// so caches never show the old picture.
import { randomBytes } from 'node:crypto';

const tag = () => `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;

export const BUCKETS = ['profile-photos', 'avatars', 'profile-banners', 'video-thumbnails', 'user-videos', 'user-stills', 'game-footage', 'reel-previews'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const storageKeys = {
  profilePhoto: (userId: string) => `profile-photos/${userId}/profile.jpg`,
  avatar: (userId: string) => `avatars/${userId}/avatar-${tag()}.jpg`,
  avatarOriginal: (userId: string) => `avatars/${userId}/original-${tag()}.jpg`,
  banner: (userId: string) => `profile-banners/${userId}/banner-${tag()}.jpg`,
  videoThumbnail: (userId: string, videoId: string) => `video-thumbnails/${userId}/${videoId}-${tag()}.jpg`,
  video: (userId: string, videoId: string, ext: string) => `user-videos/${userId}/${videoId}.${ext}`,
  /** An uploaded original, until processing has made the playable file from it. */
  videoSource: (userId: string, videoId: string) => `user-videos/${userId}/${videoId}.source`,
  /** The frame processing picks; fixed, so a re-run replaces it instead of leaving another. */
  videoAutoThumbnail: (userId: string, videoId: string) => `video-thumbnails/${userId}/${videoId}-auto.jpg`,
  still: (userId: string, ext: string) => `user-stills/${userId}/still-${tag()}.${ext}`,
  /** A still picked from a reel render's footage; named by the render so a re-run writes the same file. */
  renderedStill: (userId: string, renderId: string, index: number) => `user-stills/${userId}/still-${renderId}-${index}.jpg`,
  /** A render's short watermarked preview for the family before they pay (reels/preview.ts). */
  reelPreview: (userId: string, renderId: string) => `reel-previews/${userId}/preview-${renderId}.mp4`,
  /** An extra face photo the athlete is found by (faces/references.ts). */
  referencePhoto: (userId: string) => `profile-photos/${userId}/reference-${tag()}.jpg`,
  /** Game footage: never served through /api/media (media/routes.ts refuses the bucket). */
  footage: (eventId: string, footageId: string) => `game-footage/${eventId}/${footageId}.source`,
};

/** The bucket and owner of a key, or null when it is not one of ours. */
export function parseKey(key: string): { bucket: Bucket; userId: string; file: string } | null {
  const [bucket, userId, file, ...rest] = key.split('/');
  if (rest.length || !bucket || !userId || !file) return null;
  if (!(BUCKETS as readonly string[]).includes(bucket)) return null;
  return { bucket: bucket as Bucket, userId, file };
}

/** The URL the web app uses to show a stored image; access is checked when it is fetched. */
export function mediaUrl(key: string | null): string | null {
  return key ? `/api/media/${key}` : null;
}
