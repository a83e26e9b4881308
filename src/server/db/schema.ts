// The database schema. Auth tables follow better-auth's model (user, session, account,
// verification); the rest are the product's entities from the spec, section 3.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** Raw bytes: face embeddings (Float32, little-endian) and small JPEG thumbnails. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

// ---- better-auth ---------------------------------------------------------------------------

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /** better-auth's two-factor plugin: the account passed enrolment of a second factor. */
  twoFactorEnabled: boolean('two_factor_enabled').default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** better-auth's two-factor plugin: the authenticator secret and recovery codes (encrypted by it). */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factor_user_id_idx').on(t.userId), index('two_factor_secret_idx').on(t.secret)],
);

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Set on a session an admin started to view the site as this user (auth/impersonation.ts). */
    impersonatedBy: text('impersonated_by'),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

// ---- people --------------------------------------------------------------------------------

export const admins = pgTable('admins', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: 'cascade' }),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});

/**
 * One row per user, created by the database trigger on "user" insert (see migrations). It also
 * has search_text, a generated column of name, e-mail and phone for the admin search, with its
 * trigram and sort indexes: written by hand in migration 0004 and queried with sql``.
 */
export const userProfiles = pgTable(
  'user_profiles',
  {
    id: text('id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    username: text('username'),
    avatarUrl: text('avatar_url'),
    originalAvatarUrl: text('original_avatar_url'),
    bannerUrl: text('banner_url'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    teamName: text('team_name'),
    jerseyNumber: integer('jersey_number'),
    phone: text('phone'),
    city: text('city'),
    state: text('state'),
    dateOfBirth: date('date_of_birth'),
    eventName: text('event_name'),
    /** When a parent or guardian agreed to the terms (registration of an athlete under 18). */
    guardianConsentAt: timestamp('guardian_consent_at', { withTimezone: true }),
    /**
     * Under 13: when the parent's consent was given from the confirmed address (its record is in
     * parental_consents; decision 0035). Null: not given (yet), so nothing is asked or searched.
     */
    parentalConsentAt: timestamp('parental_consent_at', { withTimezone: true }),
    /** The name of the parent who gave it, as they typed it. */
    parentalConsentBy: text('parental_consent_by'),
    /**
     * The family this athlete belongs to: the account holder's user id for an athlete added from
     * the dashboard ("Add athlete"), null for the account's own profile (decision 0036). An added
     * athlete is a user row with no way to sign in; the holder acts for it.
     */
    familyId: text('family_id').references(() => user.id, { onDelete: 'cascade' }),
    /** The account holder's own name (a parent or guardian), greeted in every mail; null: the athlete holds the account. */
    holderName: text('holder_name'),
    /**
     * The account's own athlete was erased on its own ("Remove this athlete") while the family
     * keeps its other athletes: the profile is then the holder's alone, listed nowhere as an athlete.
     */
    ownAthleteErasedAt: timestamp('own_athlete_erased_at', { withTimezone: true }),
    tutorialCompletedAt: timestamp('tutorial_completed_at', { withTimezone: true }),
    /** When the account holder agreed to face matching; null: the athlete is never searched for. */
    faceMatchConsentAt: timestamp('face_match_consent_at', { withTimezone: true }),
    /** Who gave that consent: the account holder's own user id (never an admin viewing as them). */
    faceMatchConsentBy: text('face_match_consent_by'),
    /**
     * Consent ticked at registration, before the address was confirmed: nothing is compared and no
     * descriptor made until the confirmation link is followed, which turns it into consent given
     * by the holder of the confirmed address (issue 33, finding 5).
     */
    faceMatchConsentPendingAt: timestamp('face_match_consent_pending_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('user_profiles_username_lower_idx').on(sql`lower(${t.username})`),
    index('user_profiles_email_idx').on(t.email),
    index('user_profiles_last_name_idx').on(t.lastName),
    index('user_profiles_family_idx').on(t.familyId),
  ],
);

/**
 * The record of a parent's consent for an athlete under 13 (COPPA, "email plus"; decision 0035):
 * who (the name they typed, the account), what (the notice's version), when, and from which
 * confirmed address; then the confirmation mail that follows it. Pending (given_at null) while
 * the address of a new registration is not confirmed yet.
 */
export const parentalConsents = pgTable(
  'parental_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    parentName: text('parent_name').notNull(),
    noticeVersion: text('notice_version').notNull(),
    method: text('method').notNull().default('email_plus'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    givenAt: timestamp('given_at', { withTimezone: true }),
    givenFromEmail: text('given_from_email'),
    confirmationMailedAt: timestamp('confirmation_mailed_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('parental_consents_user_idx').on(t.userId, t.requestedAt)],
);

/**
 * How many user_profiles rows there are, kept by the database's own triggers on insert, delete
 * and truncate (migration 0013): the admin users list shows the total on every open, and
 * counting 10,000 profiles cost more than the rest of its page. One row.
 */
export const userProfileCount = pgTable(
  'user_profile_count',
  {
    onlyRow: boolean('only_row').primaryKey().default(true),
    profiles: integer('profiles').notNull(),
  },
  (t) => [check('user_profile_count_one_row', sql`${t.onlyRow}`)],
);

/**
 * Per user, how many of their requests are in each status and how many videos they have, kept by
 * the database's own triggers on highlight_requests and user_videos (migration 0014). The admin
 * users list's filters read this one narrow row per user instead of gathering every request and
 * video on each search. A user with none of either has no row, and a row that falls to all zeros
 * is removed; no foreign key, because a user's deletion takes their requests and videos away by
 * cascade, whose triggers then empty and remove the row themselves.
 */
export const userListTallies = pgTable('user_list_tallies', {
  userId: text('user_id').primaryKey(),
  pending: integer('pending').notNull().default(0),
  readyToPurchase: integer('ready_to_purchase').notNull().default(0),
  delivered: integer('delivered').notNull().default(0),
  videos: integer('videos').notNull().default(0),
});

export const homepageSignups = pgTable(
  'homepage_signups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    status: text('status'),
    /** "Clear All Submissions" archives: the entry leaves the list but is never lost. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('homepage_signups_email_idx').on(t.email, t.createdAt)],
);

// ---- events and requests -------------------------------------------------------------------

export const reelSource = pgEnum('reel_source', ['footage', 'hand']);

export const events = pgTable('events', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  location: text('location').notNull(),
  dates: text('dates').notNull(),
  startsOn: date('starts_on'),
  /** The event's last day (null: one day); `dates` is written from the two when they are given. */
  endsOn: date('ends_on'),
  /**
   * The last day families can ask for a reel of this event; face data of people not matched to a
   * request is deleted after it (null: the configured number of days after the event starts).
   */
  requestsCloseOn: date('requests_close_on'),
  isActive: boolean('is_active').notNull().default(true),
  /**
   * How its reels are made: from the provider's footage (the family pays once a preview exists),
   * or by hand by the team after payment. An event with footage is treated as the first kind
   * whatever this says (requests/reel-progress.ts), so nobody pays for a reel nobody has seen.
   */
  reelSource: reelSource('reel_source').notNull().default('footage'),
  /** Added by `npm run seed:demo`: sample events for trying the product, never a real one. */
  demo: boolean('demo').notNull().default(false),
  createdAt: createdAt(),
});

export const eventGames = pgTable(
  'event_games',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    position: integer('position').notNull(),
    court: text('court'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    /** Archived games keep their footage and requests but take no new ones. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [index('event_games_event_idx').on(t.eventId, t.position)],
);

/**
 * A team playing at an event (issue 35, item 1): its name and kit, home and (when it has two) away,
 * as #rrggbb colours of the shirt and of the number on it; its roster is in roster_entries.
 */
export const eventTeams = pgTable(
  'event_teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kitColor: text('kit_color'),
    numberColor: text('number_color'),
    awayKitColor: text('away_kit_color'),
    awayNumberColor: text('away_number_color'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('event_teams_event_name_idx').on(t.eventId, sql`lower(${t.name})`)],
);

/** One athlete on a team's roster: the name the team gave and the number on the shirt. */
export const rosterEntries = pgTable(
  'roster_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => eventTeams.id, { onDelete: 'cascade' }),
    athleteName: text('athlete_name').notNull(),
    jerseyNumber: integer('jersey_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roster_entries_team_number_idx').on(t.teamId, t.jerseyNumber)],
);

export const highlightRequestStatus = pgEnum('highlight_request_status', [
  'pending',
  'ready_to_purchase',
  'delivered',
]);

export const highlightRequests = pgTable(
  'highlight_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    status: highlightRequestStatus('status').notNull().default('pending'),
    eventId: text('event_id').references(() => events.id),
    /** The event's name when the request was made, as the spec's "event" text. */
    event: text('event').notNull(),
    games: jsonb('games').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    adminAcknowledgedAt: timestamp('admin_acknowledged_at', { withTimezone: true }),
    adminAcknowledgedBy: text('admin_acknowledged_by').references(() => user.id, { onDelete: 'set null' }),
    /** Face matching of this request: null (never run), matching, ready, no_consent, no_reference, failed. */
    matchingState: text('matching_state'),
    matchedAt: timestamp('matched_at', { withTimezone: true }),
    /** Another athlete of the event has a reference closer than the match threshold. */
    lookalike: boolean('lookalike').notNull().default(false),
    /** The team and number the family named for an event with rosters (issue 35, item 1). */
    teamName: text('team_name'),
    jerseyNumber: integer('jersey_number'),
    /** The roster entry that team and number name; null when there is none. */
    rosterEntryId: uuid('roster_entry_id').references(() => rosterEntries.id, { onDelete: 'set null' }),
    /** An admin confirmed the athlete is this family's despite a doubtful link (rosters/link.ts). */
    rosterConfirmedAt: timestamp('roster_confirmed_at', { withTimezone: true }),
    rosterConfirmedBy: text('roster_confirmed_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('highlight_requests_user_idx').on(t.userId, t.createdAt),
    index('highlight_requests_status_idx').on(t.status),
    index('highlight_requests_user_status_idx').on(t.userId, t.status),
    index('highlight_requests_roster_entry_idx').on(t.rosterEntryId),
    // The admins' work queue, newest first (requests/queue.ts).
    index('highlight_requests_created_idx').on(t.createdAt, t.id),
    // One open request per user and event; a delivered one does not block a new request.
    uniqueIndex('highlight_requests_one_open_per_event_idx')
      .on(t.userId, t.eventId)
      .where(sql`status in ('pending', 'ready_to_purchase')`),
  ],
);

// ---- media ---------------------------------------------------------------------------------

export const videoType = pgEnum('video_type', ['full_video', 'social_cut', 'highlight_reel']);

export const userVideos = pgTable(
  'user_videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    videoTitle: text('video_title').notNull(),
    videoDescription: text('video_description'),
    opponent: text('opponent'),
    tournamentName: text('tournament_name'),
    /** Storage key of the video file; null while the video is being processed. */
    videoUrl: text('video_url'),
    thumbnailUrl: text('thumbnail_url'),
    videoType: videoType('video_type').notNull().default('highlight_reel'),
    isProcessed: boolean('is_processed').notNull().default(false),
    status: text('status').notNull().default('active'),
    isVisible: boolean('is_visible').notNull().default(false),
    isPaid: boolean('is_paid').notNull().default(false),
    durationSeconds: real('duration_seconds'),
    fileSizeMb: real('file_size_mb'),
    width: integer('width'),
    height: integer('height'),
    /**
     * ready (playable), queued or processing (the 'media.process-video' job), or failed (with
     * processing_error). Until ready, the athlete sees "Video Being Processed".
     */
    processingState: text('processing_state').notNull().default('ready'),
    /** 0-100 while processing. */
    processingProgress: integer('processing_progress'),
    processingError: text('processing_error'),
    /** The uploaded original, kept until processing has made the playable file. */
    sourceKey: text('source_key'),
    uploadedBy: text('uploaded_by').references(() => user.id, { onDelete: 'set null' }),
    /** The request a Not Yet Paid video belongs to: buying that request unlocks it. Null: any purchase does. */
    requestId: uuid('request_id').references(() => highlightRequests.id, { onDelete: 'set null' }),
    /** The reel render that made this video (reels/render-job.ts); null for an admin's upload. */
    renderId: uuid('render_id'),
    createdAt: createdAt(),
  },
  (t) => [index('user_videos_user_idx').on(t.userId, t.createdAt), index('user_videos_request_idx').on(t.requestId)],
);

export const userStills = pgTable(
  'user_stills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    storageUrl: text('storage_url').notNull(),
    originalFilename: text('original_filename'),
    orderPosition: integer('order_position').notNull().default(0),
    /** Stills picked from a request's footage stay hidden until that request is paid for. */
    requestId: uuid('request_id').references(() => highlightRequests.id, { onDelete: 'set null' }),
    isVisible: boolean('is_visible').notNull().default(true),
    renderId: uuid('render_id'),
    createdAt: createdAt(),
  },
  (t) => [index('user_stills_user_idx').on(t.userId, t.orderPosition)],
);

/**
 * A private, watch-only link to a delivered reel for relatives without an account (issue 34,
 * item 2; decision 0034). Only the SHA-256 of its secret is kept: the link is shown once, when made.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id')
      .notNull()
      .references(() => highlightRequests.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** The reel's photo stills are shown too (the family ticked them). */
    includePhotos: boolean('include_photos').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    openCount: integer('open_count').notNull().default(0),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('share_links_request_idx').on(t.requestId, t.createdAt), index('share_links_user_idx').on(t.userId)],
);

// ---- payments ------------------------------------------------------------------------------

/**
 * One purchase of a reel. `pending` while checkout runs, `completed` only by a verified provider
 * event (or at once for a free order), `expired` or `failed` when the provider says so. The
 * stripe_* names are the spec's; they hold the local test provider's ids as well.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the buyer's account is erased: the order stays as the anonymous record accounting needs. */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    requestId: uuid('request_id').references(() => highlightRequests.id, { onDelete: 'set null' }),
    /** What the buyer pays, in cents (the price less the discount). */
    amount: integer('amount').notNull(),
    /** The promo code's discount, in cents. */
    discountCents: integer('discount_cents').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull().default('pending'),
    promoCode: text('promo_code'),
    /** stripe, local (the built-in test checkout) or free (a 100% promo code). */
    provider: text('provider').notNull(),
    stripePaymentId: text('stripe_payment_id'),
    stripeSessionId: text('stripe_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    /** Counts the provider sessions made for this order; part of each one's idempotency key. */
    checkoutAttempt: integer('checkout_attempt').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Set once the receipt mail is stored for delivery. */
    receiptQueuedAt: timestamp('receipt_queued_at', { withTimezone: true }),
    /** What the provider has confirmed refunded, in cents (payments/refunds.ts). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** When the whole amount came back: the order's status is then 'refunded'. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    // A request is bought once, and has at most one checkout under way.
    uniqueIndex('orders_one_pending_per_request_idx').on(t.requestId).where(sql`status = 'pending'`),
    uniqueIndex('orders_one_completed_per_request_idx').on(t.requestId).where(sql`status = 'completed'`),
    check('orders_amount_check', sql`amount >= 0 AND discount_cents >= 0`),
    check('orders_refunded_check', sql`refunded_cents BETWEEN 0 AND amount`),
  ],
);

/**
 * Money given back on an order (payments/refunds.ts): asked by an admin here, or made in the
 * provider's own dashboard and learnt from its webhook. Pending until the provider's event says
 * it succeeded or failed, as a payment is.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    provider: text('provider').notNull(),
    /** The provider's refund id; null only while the provider has not answered yet. */
    providerRefundId: text('provider_refund_id').unique(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    /** pending, succeeded or failed. */
    status: text('status').notNull().default('pending'),
    /** The admin who asked; null for a refund made in the provider's dashboard. */
    requestedBy: text('requested_by').references(() => user.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('refunds_order_idx').on(t.orderId), check('refunds_amount_check', sql`amount > 0`)],
);

export const promoCodes = pgTable(
  'promo_codes',
  {
    code: text('code').primaryKey(),
    discountPercent: integer('discount_percent').notNull(),
    active: boolean('active').notNull().default(true),
    /** The last day the code works (the provider's calendar, UTC); null: no end. */
    expiresOn: date('expires_on', { mode: 'string' }),
    /** How many paid orders may use it; null: no limit. */
    maxUses: integer('max_uses'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_lower_idx').on(sql`lower(${t.code})`),
    check('promo_codes_discount_percent_check', sql`discount_percent BETWEEN 1 AND 100`),
  ],
);

/**
 * Every payment-provider event acted on, once: a repeated or concurrent delivery of the same
 * event meets the unique index and changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** What it did: completed, awaiting_payment, failed, expired, ignored. */
    outcome: text('outcome').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('payment_events_provider_event_idx').on(t.provider, t.eventId)],
);

/**
 * The built-in test checkout's own sessions (payments/local-provider.ts): what a provider would
 * keep on its side. Only used when no Stripe key is set.
 */
export const localCheckoutSessions = pgTable('local_checkout_sessions', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  /** The request that made it, to tell a replay from a different request with the same key. */
  fingerprint: text('fingerprint').notNull(),
  amountTotal: integer('amount_total').notNull(),
  currency: text('currency').notNull(),
  description: text('description').notNull(),
  customerEmail: text('customer_email'),
  clientReferenceId: text('client_reference_id'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  /** open, complete or expired. */
  status: text('status').notNull().default('open'),
  /** unpaid or paid. */
  paymentStatus: text('payment_status').notNull().default('unpaid'),
  paymentIntent: text('payment_intent'),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  /**
   * The one event a session ends with (checkout.session.completed or .expired), set in the same
   * UPDATE as the status, so a session that changed always has its event; the delivery job sets
   * delivered_at once our webhook has taken it.
   */
  eventId: text('event_id'),
  eventType: text('event_type'),
  eventDeliveredAt: timestamp('event_delivered_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

// ---- contact and housekeeping --------------------------------------------------------------

/**
 * The built-in test checkout's refunds, kept on its side as a provider keeps them: each succeeds
 * at once (test mode) and its event goes to our webhook like a session's (local-provider.ts).
 */
export const localRefunds = pgTable('local_refunds', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  paymentIntent: text('payment_intent').notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  status: text('status').notNull(),
  eventId: text('event_id').notNull(),
  eventDeliveredAt: timestamp('event_delivered_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * What the team was told, once each (team/notices.ts): mailed at once, or held for the day's
 * summary when the team has had its share of mails that day.
 */
export const teamNotices = pgTable(
  'team_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What it is about, e.g. request:<id>, payment:<order id>: the same thing is told once. */
    key: text('key').notNull().unique(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    lines: jsonb('lines').$type<string[]>().notNull(),
    link: text('link').notNull(),
    replyTo: text('reply_to'),
    /** The family it names: erased with them. */
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** sending (stored, its mail not yet handed over), mailed, held (for the summary), summarised. */
    status: text('status').notNull(),
    /** The day (UTC) of the summary that carried it. */
    summaryDay: date('summary_day'),
    createdAt: createdAt(),
  },
  (t) => [index('team_notices_status_idx').on(t.status, t.createdAt)],
);

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

/**
 * What admins did that touches a family's data: impersonation started and ended, every change
 * made while viewing as a user, request transitions, uploads and deletions. Never updated.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The admin who acted. */
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    /** The user whose data it was. */
    subjectUserId: text('subject_user_id').references(() => user.id, { onDelete: 'cascade' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_subject_idx').on(t.subjectUserId, t.createdAt), index('audit_log_created_idx').on(t.createdAt)],
);

/**
 * The lease of a running background job: who runs it and when it last said so. A job whose
 * worker stops beating is handed back to the queue (jobs/queue.ts). The jobs themselves live in
 * pg-boss's own tables (schema pgboss).
 */
export const jobLeases = pgTable('job_leases', {
  jobId: uuid('job_id').primaryKey(),
  jobName: text('job_name').notNull(),
  workerId: text('worker_id').notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Fixed-window counters for rate limits, shared by every API instance. */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

// ---- footage and the face index ------------------------------------------------------------

/** Game footage: one file per game and camera, indexed once for faces. */
export const footage = pgTable(
  'footage',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    gameId: text('game_id')
      .notNull()
      .references(() => eventGames.id, { onDelete: 'cascade' }),
    camera: text('camera').notNull(),
    originalName: text('original_name'),
    sourceKey: text('source_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    durationSeconds: real('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    fps: real('fps'),
    /** queued, indexing, indexed, failed or purged (the retention period ended). */
    indexState: text('index_state').notNull().default('queued'),
    indexProgress: integer('index_progress').notNull().default(0),
    indexError: text('index_error'),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    /** Frames sampled per second for the index it holds. */
    sampleFps: real('sample_fps'),
    /** Seconds each stage took in the last indexing run (decode, detect, embed, store). */
    indexStats: jsonb('index_stats').$type<Record<string, number>>(),
    /** Shot cuts seen while indexing, seconds into the file: no track or clip crosses one. */
    shotCuts: jsonb('shot_cuts').$type<number[]>().notNull().default([]),
    /**
     * Seconds to add to this camera's own time to get the game's common clock (cameras are started
     * by hand at different times). Found from the sound (footage/sync.ts) or set by an admin.
     */
    syncOffsetS: real('sync_offset_s').notNull().default(0),
    /** Where the offset came from: reference (the game's first camera), audio, admin, or no_audio. */
    syncSource: text('sync_source'),
    uploadedBy: text('uploaded_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('footage_game_idx').on(t.gameId, t.camera), index('footage_event_idx').on(t.eventId)],
);

/** One person's continuous presence in one footage file, with its best frame. */
export const faceTracks = pgTable(
  'face_tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    footageId: uuid('footage_id')
      .notNull()
      .references(() => footage.id, { onDelete: 'cascade' }),
    startS: real('start_s').notNull(),
    endS: real('end_s').notNull(),
    bestS: real('best_s').notNull(),
    /** The best frame's face box, in source pixels. */
    box: jsonb('box').$type<{ x: number; y: number; w: number; h: number }>().notNull(),
    faceHeight: integer('face_height').notNull(),
    score: real('score').notNull(),
    quality: real('quality').notNull(),
    /** 1 to 5 descriptors of 128 Float32 values, back to back; empty when every face was too small. */
    embeddings: bytea('embeddings').notNull(),
    /** A small JPEG of the best face, for the admin's review only. */
    thumbnail: bytea('thumbnail'),
    /** The number read on the shirt under the face (faces/jersey.ts), when it could be read. */
    jerseyNumber: integer('jersey_number'),
    /** How many samples saw the face. */
    samples: integer('samples').notNull().default(1),
  },
  (t) => [index('face_tracks_footage_idx').on(t.footageId)],
);

/** Every sampled face of a track: where the social cut's crop has to follow it. */
export const faceDetections = pgTable(
  'face_detections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => faceTracks.id, { onDelete: 'cascade' }),
    t: real('t').notNull(),
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    w: integer('w').notNull(),
    h: integer('h').notNull(),
    score: real('score').notNull(),
    quality: real('quality').notNull(),
  },
  (t) => [index('face_detections_track_idx').on(t.trackId, t.t)],
);

/**
 * One person's continuous presence in one shot of a footage file (people/stretch.ts): found by the
 * person detector whether or not a face shows. Kept with the face index and purged with it.
 */
export const personTracks = pgTable(
  'person_tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    footageId: uuid('footage_id')
      .notNull()
      .references(() => footage.id, { onDelete: 'cascade' }),
    startS: real('start_s').notNull(),
    endS: real('end_s').notNull(),
    /** Every sampled box, 13 bytes each (people/track-boxes.ts): read whole, never searched. */
    boxes: bytea('boxes').notNull(),
    /** The face tracks whose faces lay in this person's box. */
    faceTrackIds: jsonb('face_track_ids').$type<string[]>().notNull().default([]),
    samples: integer('samples').notNull(),
    /** The shirt's colour along the track (people/kit.ts), `#rrggbb`. */
    kitColour: text('kit_colour'),
    /** The number on the shirt when its readings agreed, and how many readings were legible. */
    jerseyNumber: integer('jersey_number'),
    numberReads: integer('number_reads').notNull().default(0),
  },
  (t) => [index('person_tracks_footage_idx').on(t.footageId, t.startS)],
);

/**
 * The admin's word on a person track for one request (issue 35 item 5): "this is the athlete" or
 * "not the athlete", given on the track clicked and every track its evidence links to.
 */
export const personLabels = pgTable(
  'person_labels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => highlightRequests.id, { onDelete: 'cascade' }),
    personTrackId: uuid('person_track_id')
      .notNull()
      .references(() => personTracks.id, { onDelete: 'cascade' }),
    isAthlete: boolean('is_athlete').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('person_labels_request_track_idx').on(t.requestId, t.personTrackId)],
);

/** The faces an athlete is found by: the headshot and up to 5 more photos. */
export const athleteReferences = pgTable(
  'athlete_references',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** headshot (the profile's avatar) or photo (one of the extra reference photos). */
    source: text('source').notNull(),
    /** The extra photo in storage; null for the headshot, which the profile holds. */
    photoKey: text('photo_key'),
    /** Kept only while the account holder agrees to face matching. */
    embedding: bytea('embedding'),
    faceHeight: integer('face_height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('athlete_references_user_idx').on(t.userId)],
);

/** A proposed clip of a request: where the athlete was found, for the admin's review. */
export const appearances = pgTable(
  'appearances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => highlightRequests.id, { onDelete: 'cascade' }),
    footageId: uuid('footage_id')
      .notNull()
      .references(() => footage.id, { onDelete: 'cascade' }),
    gameId: text('game_id').notNull(),
    camera: text('camera').notNull(),
    startS: real('start_s').notNull(),
    endS: real('end_s').notNull(),
    /** 0-1, from the closest face distance. */
    confidence: real('confidence').notNull(),
    distance: real('distance').notNull(),
    faceHeight: integer('face_height').notNull(),
    /** Near the threshold: for the admin to decide, never silently kept or dropped. */
    unsure: boolean('unsure').notNull().default(false),
    /** The face is about as close to another athlete of the event. */
    lookalike: boolean('lookalike').notNull().default(false),
    /** The jersey number read under the face in this clip, when one was. */
    jerseySeen: integer('jersey_seen'),
    /** First and last sighting of the face in the clip (the clip adds at most 0.5 s either side). */
    seenStartS: real('seen_start_s'),
    seenEndS: real('seen_end_s'),
    /** How many samples saw the face in the clip: 1 means it was seen once. */
    samples: integer('samples'),
    /**
     * A hand-added clip's search for the athlete's face in its span: looking, found or none
     * (null for a found clip, whose tracks are the face).
     */
    faceSearch: text('face_search'),
    /** The track whose best frame is the thumbnail. */
    trackId: uuid('track_id').references(() => faceTracks.id, { onDelete: 'set null' }),
    /** Every track merged into this clip: the social cut follows their faces. */
    trackIds: jsonb('track_ids').$type<string[]>().notNull().default([]),
    /** The person tracks the clip spans (people/decide.ts): the athlete's box at each sample. */
    personTrackIds: jsonb('person_track_ids').$type<string[]>().notNull().default([]),
    /** Why the clip was proposed when people were weighed (people/decide.ts PersonReason); null: by face alone. */
    reason: text('reason'),
    rank: integer('rank').notNull(),
    /** The admin's review: null (not yet decided), accepted or rejected. Re-matching keeps decided clips. */
    decision: text('decision'),
    /** The accepted clip's place in the reel, from 1. */
    position: integer('position'),
    /** Added by hand from the event's footage rather than found by face. */
    manual: boolean('manual').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('appearances_request_idx').on(t.requestId, t.rank)],
);

/**
 * One render of a request's reel: the highlight reel, the social cut and the stills, made by the
 * 'reels.render' job (reels/render-job.ts). Its outputs replace the previous render's at once.
 */
export const reelRenders = pgTable(
  'reel_renders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => highlightRequests.id, { onDelete: 'cascade' }),
    /** queued, rendering, ready or failed. */
    state: text('state').notNull().default('queued'),
    /** What it is doing now: reel, social, stills, storing. */
    stage: text('stage'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    spotlight: boolean('spotlight').notNull().default(true),
    /** The clips as they were when Render was pressed, so a later edit changes nothing here. */
    clips: jsonb('clips').$type<RenderClip[]>().notNull(),
    /** Seconds per stage and the outputs' durations, for the benchmarks and the admin. */
    stats: jsonb('stats').$type<Record<string, number>>(),
    /** The family's short watermarked preview (storageKeys.reelPreview), shown before they pay. */
    previewKey: text('preview_key'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('reel_renders_request_idx').on(t.requestId, t.createdAt)],
);

export interface RenderClip {
  appearanceId: string;
  footageId: string;
  startS: number;
  endS: number;
  rank: number;
  trackIds: string[];
  /** The person tracks the clip follows (absent in renders made before people were tracked). */
  personTrackIds?: string[];
}
