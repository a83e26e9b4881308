// The signed-in athlete's texts (dashboard, requests, profile, media, checkout): a module of
// their own so the public pages' bundle does not carry them. See messages.ts.
import { PROCESSING_TIME } from './constants';
import { FIELD_ERRORS, type ToastText } from './messages';

export const DASHBOARD = {
  notSpecified: 'Not specified',
  requestSubmitted: 'Request Submitted',
  purchaseReel: 'Purchase Your Reel',
  videoProcessing: 'Video Being Processed',
  cards: {
    reels: 'Your Highlight Reels',
    photos: 'Your Photos',
    request: 'Request a Highlight Reel',
    profile: 'Your Profile',
  },
} as const;

export const REQUEST = {
  /** Under the form's title: true for reels made from game footage (a preview first) and by hand alike. */
  formIntro: "Pick the event and the games your athlete played. We'll email you as soon as your reel is ready to purchase.",
  eventRequired: { title: 'Event Required', description: 'Please select an event before submitting.' } satisfies ToastText,
  gamesRequired: { title: 'Games Required', description: 'Please select at least one game before submitting.' } satisfies ToastText,
  /** An event with rosters (issue 35, item 1): the athlete's team and number find them on it. */
  team: 'Team',
  teamHint: "Your athlete's team at this event, and the number on their shirt: we find them by it.",
  number: 'Jersey number',
  teamRequired: "Choose your athlete's team at this event.",
  unknownTeam: 'That team does not play at this event: choose it from the list.',
  numberRequired: "Enter the number on your athlete's shirt (0 to 9999).",
  submitted: {
    title: 'Request Submitted',
    description: "We've received your request. We'll let you know when your reel is ready to purchase.",
  } satisfies ToastText,
  failedTitle: 'Submission Failed',
  failedFallback: 'Failed to submit request. Please try again.',
  alreadyOpen: 'You already have an open request for this event.',
  unknownEvent: 'This event is not available. Please choose another event.',
  unknownGame: 'One of the selected games is not part of this event.',
  /** A fresh install, or every event archived: nothing to ask for yet. */
  noEvents: "There are no events to request a reel for yet. We'll list them here as soon as our team adds one.",
  /** How the chosen event's reels are made (issue 34, item 3), said before the family asks. */
  fromFootage: 'Reels of this event are built from our game footage: you watch a preview of yours before you pay.',
  /** Several events at once (issue 34, item 1): another request while one is open. */
  another: 'Ask for another event',
  cancelAnother: 'Cancel',
  requested: 'Requested',
  openRequests: 'Your requests',
  /** How an open request stands, after "Your request for <event> is". */
  states: {
    pending: 'with our team.',
    paid: 'paid: your reel is on its way.',
    preparing: 'being prepared.',
    ready: 'ready to purchase.',
  },
  /** A sample event of `npm run seed:demo`, for trying the product. */
  demo: 'Demo',
  demoHint: 'A sample event for trying the product, not a real one.',
  byHand: `Our team makes the reels of this event by hand from its video: you pay once we've approved your request, and your reel arrives within ${PROCESSING_TIME} of payment.`,
} as const;

export const PROFILE = {
  updated: { title: 'Profile Updated', description: 'Your profile has been updated.' } satisfies ToastText,
  notFound: 'User not found. Please refresh and try again.',
  updateFailed: 'Failed to update profile. Please try again.',
  loadFailed: 'Failed to load profile. Please try again.',
  avatarUpdated: { title: 'Avatar Updated', description: 'Your profile picture has been updated.' } satisfies ToastText,
  bannerUpdated: { title: 'Banner Updated', description: 'Your banner has been updated.' } satisfies ToastText,
  uploadFailedTitle: 'Upload Failed',
  saveAvatarFailed: 'Failed to save profile picture.',
  firstNameRequired: FIELD_ERRORS.required('First name'),
  lastNameRequired: FIELD_ERRORS.required('Last name'),
} as const;

export const FILE_TOO_LARGE_10MB: ToastText = { title: 'File Too Large', description: 'Please upload an image smaller than 10MB.' };

/** The videos a reel render makes for the family (server/reels/render-job.ts). */
export const RENDERED_VIDEOS = {
  highlight_reel: 'Highlight Reel',
  social_cut: 'Social Cut',
  description: (clips: number) => (clips === 1 ? '1 clip' : `${clips} clips`),
} as const;

export const MEDIA = {
  videosLoadFailed: 'Failed to load videos. Please refresh the page.',
  stillsLoadFailed: 'Failed to load photo stills. Please refresh the page.',
  downloadStarted: { title: 'Download Started', description: 'Your video is downloading.' } satisfies ToastText,
  downloadFailed: { title: 'Download Failed', description: 'Could not download video. Please try again.' } satisfies ToastText,
  thumbnailUpdated: { title: 'Thumbnail Updated', description: 'Your video thumbnail has been updated.' } satisfies ToastText,
  thumbnailFailed: 'Failed to save thumbnail.',
  notFound: 'Not found',
} as const;

/**
 * How downloads are named: "<Athlete> – <Event> – Highlight Reel.mp4", "<Athlete> – <Event> – Photo 3.jpg".
 * The server puts the name in Content-Disposition; the full-size photo viewer shows the same counter.
 */
export const DOWNLOAD_NAMES = {
  separator: ' – ',
  videoKinds: { highlight_reel: 'Highlight Reel', social_cut: 'Social Cut', full_video: 'Full Game' },
  video: 'Video',
  photo: (n: number) => `Photo ${n}`,
} as const;

/** The full-size photo viewer of "Your Photos". */
export const PHOTO_VIEWER = {
  title: 'Photo viewer',
  counter: (n: number, total: number) => `Photo ${n} of ${total}`,
  open: (n: number) => `Open photo ${n} full size`,
  previous: 'Previous photo',
  next: 'Next photo',
  close: 'Close photo viewer',
  download: 'Download',
  downloadPhoto: (n: number) => `Download photo ${n}`,
  hint: 'Swipe or use the arrow keys to move between photos.',
} as const;

export const CHECKOUT = {
  /** A refund the provider confirmed (payments/refunds.ts, decision 0039). */
  refunded: (amount: string, on: string, whole: boolean) =>
    `We refunded ${amount} on ${on}.${whole ? ' The reel is locked again; you can buy it again here.' : ' Your reel stays unlocked.'}`,
  success: {
    title: 'Payment Successful!',
    description: 'Your highlight reel order has been confirmed. Check your email for details.',
  } satisfies ToastText,
  cancel: {
    title: 'Checkout Cancelled',
    description: 'Your order was not completed. Feel free to try again when ready.',
  } satisfies ToastText,
  failedTitle: 'Checkout Failed',
  failedFallback: 'Could not start checkout. Please try again.',
  noUrl: 'Could not create checkout session.',
  generic: 'Something went wrong. Please try again.',
  notReady: 'This reel is not ready to purchase yet.',
  /** The team and number did not find the athlete surely on the event's roster (issue 35, item 1). */
  rosterUnconfirmed: "Our team is checking that this athlete is yours on the event's roster. You can purchase the reel once they have; we'll email you.",
  alreadyPaid: 'This reel has already been paid for.',
  /** A payment for the session is in and being confirmed: no second checkout. */
  paymentInProgress: 'Your payment is being confirmed. Please wait a moment before trying again.',
  /** For videos the team makes by hand after payment (an event whose reels are made by hand). */
  purchaseNote: `Our team makes this reel by hand after your payment: it arrives within ${PROCESSING_TIME}. Payments are non-refundable.`,
  /** For a reel already rendered from the footage: nothing to wait for once paid. */
  purchaseNoteReady: 'Your reel is ready: it unlocks as soon as your payment is confirmed. Payments are non-refundable.',
  /** A reel from the footage is bought after its preview is ready, not before. */
  previewNotReady: "Your reel isn't ready to purchase yet. We'll email you as soon as its preview is ready.",
  checkout: 'Checkout',
  redirecting: 'Redirecting...',
  /** The order the dashboard shows after a checkout return, by its state. */
  order: {
    title: 'Your Order',
    completed: 'Paid',
    pending: 'Confirming your payment...',
    pendingNote: 'This takes a few seconds. This page updates by itself.',
    expired: 'Not completed',
    failed: 'Payment failed',
    reel: 'Highlight reel',
    total: 'Total',
    promo: 'Promo code',
    free: 'Free',
    reference: 'Order',
    testPayment: 'Test payment: no money was taken.',
  },
  paid: `Paid: your reel is on its way (${PROCESSING_TIME}).`,
  /** Paid for a reel from the footage that is still being made: its "is ready" mail follows. */
  paidMaking: "Paid: your reel is being made. We'll email you as soon as it's ready.",
  /** What the purchase dialog sells. */
  productName: 'Personalised highlight reel',
} as const;

/**
 * Where a reel made from the event's footage stands, on the dashboard's request card (issue 22).
 * `name` is the athlete's first name.
 */
export const REEL_STATUS = {
  /** The card's title until the preview is there (not "Your Highlight Reel": the reels card is next to it). */
  title: (name: string) => `Finding ${name}`,
  /** A reel from footage whose event has no footage uploaded yet: nothing to look at, nothing to pay. */
  awaitingFootage: (name: string) =>
    `The game footage isn't in yet. As soon as it is, we find ${name} in it and make a preview, and we'll email you. You pay only once you've watched it.`,
  finding: (name: string) => `We're finding ${name} in the footage and making a preview. We'll email you when it's ready.`,
  /** Some cameras of the requested games are not searched yet (still being prepared, or held up at our end). */
  camerasNotSearched: (n: number) => `${n === 1 ? 'One camera' : `${n} cameras`} of your games ${n === 1 ? 'is' : 'are'} still being prepared: we look there as soon as ${n === 1 ? 'it is' : 'they are'} ready.`,
  notFound: (name: string) =>
    `We couldn't find ${name} in the game footage yet. Adding 2–3 clear reference photos of their face helps: front-facing, well lit, one face per photo. Our team has been told and is looking too; you don't pay anything until we have found ${name}.`,
  addPhotos: 'Add reference photos',
  /** Face matching declined: the reel is made all the same, by hand (issue 34, item 5); nothing urges it on. */
  noConsent: (name: string) =>
    `Face matching is off, so our team picks ${name}'s moments from the game footage by hand. It can take a little longer. We'll email you when the preview is ready, and you pay only once you've watched it.`,
  previewTitle: 'Your reel is ready',
  previewCaption: 'A short, watermarked preview of your reel. Purchase it to unlock the full reel, the social cut and the photo stills at once.',
  previewLabel: (name: string) => `Preview of ${name}'s highlight reel`,
  athleteFallback: 'your athlete',
} as const;

export const PROMO = {
  invalid: { title: 'Invalid Promo Code', description: 'This promo code is not valid.' } satisfies ToastText,
  expired: { title: 'Promo Code Expired', description: 'This promo code has expired.' } satisfies ToastText,
  used_up: { title: 'Promo Code Used Up', description: 'This promo code has been used as many times as it may be.' } satisfies ToastText,
  checkFailed: 'Could not validate promo code. Please try again.',
  appliedTitle: 'Promo Code Applied',
  /** The success toast's text: the saving as an amount and a percent. */
  applied: (saved: string, percent: number) => `You save ${saved} (${percent}% off).`,
  label: 'Promo code',
  apply: 'Apply',
} as const;

export const TUTORIAL = {
  steps: [
    {
      title: 'Add a clear face photo',
      text: 'Upload a clear, front-facing photo of your athlete. We use it to find them in the game footage.',
    },
    {
      title: 'Complete your profile',
      text: 'Add your team and jersey number with Edit Profile, so we can match your athlete on every camera.',
    },
  ],
  next: 'Next',
  done: 'Done',
  /** What each step offers to do at once. */
  actions: ['Add a photo', 'Edit Profile'],
} as const;

/** Face matching: the consent next to the headshot, and the reference photo checks. */
export const FACE_MATCHING = {
  title: 'Find my athlete by face',
  explanation:
    'With your permission we compare the face on your athlete\'s headshot and reference photos with the game footage of the events you request, to find the moments they appear. The face data stays on our servers, is used for nothing else, and is deleted when you turn this off or delete the account. Faces in the game footage that no family asked for are deleted when the event stops taking requests, and the whole face index 90 days after it is made; face data is stored encrypted.',
  consentLabel: 'I agree to face matching for my athlete',
  /** Next to the choice on the registration form. */
  optionalNote: '(optional: you can turn it on or off on your dashboard at any time)',
  on: 'Face matching is on.',
  /** Off is a real choice: the reel comes either way, made by hand (issue 34, item 5). */
  off: 'Face matching is off: our team finds your athlete in the footage by hand.',
  /** The difference, said once under the explanation, without pressure either way. */
  difference: 'Either way you get a reel. With face matching on, we find your athlete across every camera ourselves; with it off, our team finds them by hand by team and jersey number.',
  withdrawn: 'Face matching is off and your athlete\'s face data has been deleted.',
  referencesTitle: 'Reference photos',
  referencesHelp: 'Up to 5 more clear photos of your athlete\'s face help us find them from every angle.',
  addReference: 'Add a reference photo',
  referenceAdded: 'Reference photo added.',
  referenceRemoved: 'Reference photo removed.',
  consentRequired: 'Turn on face matching first.',
  /** Who agreed and when, under the choice (the consent record's faceMatchConsentBy and At). */
  consentGiven: (date: string) => `Turned on by you on ${date}.`,
  /** A consent given before the record said who gave it. */
  consentGivenUnrecorded: (date: string) => `Turned on on ${date}.`,
  /** An admin viewing the site as the family: consent and reference photos are the family's own act. */
  familyOnly: 'Only the family can turn face matching on or off and add or remove reference photos. This is not possible while viewing the site as a user.',
  noFace: 'We could not find a face in this photo. Please choose a photo where your athlete\'s face is clearly visible.',
  severalFaces: 'This photo shows more than one face. Please choose a photo of your athlete alone.',
  tooSmallOrBlurred: 'The face in this photo is too small or blurred to match. Please choose a closer, sharper photo.',
  tooMany: 'You can add up to 5 reference photos. Remove one to add another.',
  headshotUnusable: 'We could not use the headshot for face matching. Add a reference photo with one clear, front-facing face.',
  /** The face-matching card's line about the headshot, by what the server says of it. */
  headshotUsable: 'Your headshot can be used for face matching.',
  headshotMissing: 'There is no headshot to match yet. Add a reference photo with one clear, front-facing face.',
  headshotReplaced: 'We could not use the headshot for face matching; your reference photos are used instead.',
  /** Said after registering with face matching on (the registration answer and the confirmation page). */
  registered: {
    usable: 'Your headshot can be used for face matching.',
    unusable: 'We could not use your headshot for face matching. Once you have confirmed your email, add a reference photo with one clear, front-facing face on your dashboard.',
    missing: 'Face matching is on, but there is no headshot yet. Once you have confirmed your email, add a reference photo with one clear, front-facing face on your dashboard.',
    /** Consent ticked at registration waits for the confirmed address (issue 33, finding 5). */
    pending: 'Face matching starts once you confirm your email address. Your dashboard will then say whether the headshot can be used.',
  } as Record<string, string>,
} as const;

/** The card's line about the headshot: null when there is nothing to say (matching is off). */
export function headshotNote(headshot: 'usable' | 'unusable' | 'missing' | 'off', usablePhotos: number): { ok: boolean; text: string } | null {
  if (headshot === 'usable') return { ok: true, text: FACE_MATCHING.headshotUsable };
  if (headshot === 'off') return null;
  if (usablePhotos > 0) return headshot === 'unusable' ? { ok: true, text: FACE_MATCHING.headshotReplaced } : null;
  return { ok: false, text: headshot === 'unusable' ? FACE_MATCHING.headshotUnusable : FACE_MATCHING.headshotMissing };
}

/**
 * The dashboard's "finish your athlete's profile" step, for an account made with the quick
 * sign-up: the birthday and, under 18, a parent's or guardian's agreement, with the registration
 * form's rules and texts (schemas.ts athleteAgeSchema, messages.ts GUARDIAN_AGREEMENT). Until it is
 * done the server refuses face matching, reference photos and reel requests with `incomplete`.
 */
export const FINISH_PROFILE = {
  title: "Finish your athlete's profile",
  intro: "Before you turn on face matching or request a reel, tell us your athlete's birthday. Under 18, a parent or guardian agrees for them; under 13, a parent or guardian gives their consent.",
  save: 'Save',
  saving: 'Saving...',
  saved: { title: 'Profile Complete', description: 'Face matching and reel requests are open to you now.' } satisfies ToastText,
  incomplete: "Please finish your athlete's profile first: add the birthday and, for an athlete under 18, a parent's or guardian's agreement (under 13, their consent, counted once your email address is confirmed).",
  alreadyComplete: "Your athlete's profile is already complete.",
} as const;

/** Closing the account from the dashboard (issue 33): the account and everything it holds is erased. */
export const CLOSE_ACCOUNT = {
  link: 'Close account',
  title: 'Close your account?',
  body: "Closing the account erases it at once, with every athlete on it: their profiles, headshots, photos and face data, requests, videos, stills and previews. Download anything you want to keep first. Records of payments are kept without your name or address, as accounting law requires.",
  understand: 'I understand this cannot be undone',
  passwordLabel: 'Your password',
  confirm: 'Close and erase my account',
  busy: 'Closing...',
  cancel: 'Keep my account',
  wrongPassword: 'That password is not right.',
  mustUnderstand: 'Tick the box to say you understand this cannot be undone.',
  viewingAs: 'Only the family can close their own account.',
  admin: 'An admin’s account cannot be closed here.',
  failed: 'The account could not be closed. Please try again.',
  done: { title: 'Account closed', description: 'Your account and everything it held have been erased. An email confirms it.' } satisfies ToastText,
};

/** Private links to a delivered reel for relatives without an account (issue 34, item 2). */
export const SHARE = {
  title: 'Share with family',
  intro: 'Make a private link for grandparents and relatives: they watch the reel on any phone without an account. Only people you send it to can open it, and you can turn it off at any time.',
  make: 'Make a link',
  making: 'Making…',
  validFor: 'Valid for',
  days: (n: number) => (n === 1 ? '1 day' : `${n} days`),
  includePhotos: 'Include the photos',
  created: 'Link made. Copy it now: for your privacy we show it only once.',
  copy: 'Copy link',
  copied: 'Copied',
  send: 'Send the link',
  linkLabel: 'Your new link',
  opened: (n: number) => (n === 0 ? 'Not opened yet' : n === 1 ? 'Opened once' : `Opened ${n} times`),
  expires: (date: string) => `Works until ${date}`,
  expired: (date: string) => `Expired on ${date}`,
  revoked: 'Turned off',
  revoke: 'Turn off',
  revokedToast: { title: 'Link turned off', description: 'Nobody can open it any more.' } satisfies ToastText,
  withPhotos: 'Reel and photos',
  reelOnly: 'Reel only',
  none: 'No links yet.',
  failed: 'Could not make the link. Please try again.',
  /** Refusals of the API, word for word. */
  notDelivered: 'Only a delivered reel can be shared.',
  invalidDays: 'Choose how long the link works: 1 to 90 days.',
  tooMany: 'This reel has 20 links that still work. Turn one off to make another.',
  notFound: 'This link no longer exists.',
  familyOnly: 'Only the family can make or turn off share links. This is not possible while viewing the site as a user.',
} as const;

/** The page a share link opens, for someone with no account (server/sharing/page.ts). */
export const SHARED_PAGE = {
  title: (firstName: string) => `${firstName}'s highlight reel`,
  sharedBy: (until: string) => `Shared privately by the family. This link works until ${until}.`,
  reel: 'Highlight reel',
  social: 'Vertical cut',
  photos: 'Photos',
  noVideo: 'The video is being prepared. Try again in a few minutes.',
  expiredTitle: 'This link has expired',
  expired: 'Ask the family for a new link.',
  revokedTitle: 'This link was turned off',
  revoked: 'The family turned this link off. Ask them for a new one if you should still see the reel.',
  unknownTitle: 'This link does not work',
  unknown: 'Check that the whole link was copied, or ask the family for a new one.',
} as const;
