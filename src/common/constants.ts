// Business constants from the product spec, shared by the browser and the server.
import prices from '../../config/prices.json';

export const MIN_PASSWORD_LENGTH = 6;
/**
 * The terms: an athlete of any age; under 18 with a parent's or guardian's agreement, and under
 * CHILD_AGE only with the parent's verifiable consent, recorded (COPPA; decision 0035).
 */
export const CHILD_AGE = 13;
export const ADULT_AGE = 18;
/** The version of the notice a parent agrees to for a child under 13 (PARENTAL_CONSENT in parental-consent-messages.ts); recorded with the consent. */
export const PARENTAL_NOTICE_VERSION = '2026-11-27';
export const MAX_PASSWORD_LENGTH = 128;
export const VERIFICATION_LINK_TTL_SECONDS = 24 * 60 * 60;
/** The largest reference photo the face matching takes (faces/references.ts). */
export const REFERENCE_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The registration's headshot is the athlete's first reference photo, so it has the same limit. */
export const HEADSHOT_MAX_BYTES = REFERENCE_PHOTO_MAX_BYTES;
/** A picked headshot over the limit is scaled down in the browser to this longest side, as JPEG. */
export const HEADSHOT_SHRINK = { maxSidePx: 2000, jpegQuality: 0.9 } as const;
export const MOBILE_BREAKPOINT_PX = 768;

/** Redirect and toast timings of the spec, in milliseconds. */
export const TIMING = {
  toastDefault: 5000,
  resetEmailToast: 8000,
  signupConfirmToast: 10000,
  simpleSignupRedirect: 1500,
  resetRedirect: 2000,
  alreadyRegisteredRedirect: 2000,
  confirmationRedirect: 3000,
} as const;

export const US_STATES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware',
  'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky',
  'Louisiana', 'Maine', 'Maryland', 'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi',
  'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey', 'New Mexico',
  'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania',
  'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont',
  'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming',
] as const;

/**
 * The registration's Event list: the events the provider runs (from the database), then this one
 * for a family whose event is not listed.
 */
export const OTHER_EVENT = { value: 'other', label: 'Other' } as const;

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const BANNER_MAX_BYTES = 10 * 1024 * 1024;
export const THUMBNAIL_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZE_PX = 320;
export const AVATAR_JPEG_QUALITY = 0.95;
export const AVATAR_ZOOM = { min: 0.5, max: 3 } as const;
export const THUMBNAIL_JPEG_QUALITY = 0.95;
export const THUMBNAIL_SCRUB_STEP_S = 0.1;
export const BANNER_HEIGHT_PX = 320;
/** The reel's price in cents, from the price list (config/prices.json; see common/prices.ts). */
export const REEL_PRICE_CENTS: number = prices.reelCents;
/** How long a reel the team makes by hand takes after payment (the spec's processing time). */
export const PROCESSING_TIME: string = prices.processingTime;
/** The spec's admin video upload limit. */
export const VIDEO_MAX_BYTES = 500 * 1024 * 1024;
export const READY_REQUEST_POLL_MS = 10_000;
export const MEDIA_CACHE_CONTROL = 'private, max-age=3600';
