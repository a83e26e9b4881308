// The parent's consent for an athlete under 13 (decision 0035): texts of the registration, the
// dashboard and the API, in a module of their own so the public pages' bundle does not carry them.

/**
 * The notice a parent reads and agrees to for an athlete under 13 (COPPA's direct notice; decision
 * 0035), on the registration and on the dashboard's "finish your athlete's profile" step. Changing
 * it changes PARENTAL_NOTICE_VERSION, which is recorded with each consent.
 */
export const PARENTAL_CONSENT = {
  title: 'Consent for an athlete under 13',
  parentName: "Parent or guardian's full name",
  /** 13 to 17: the parent's own name, optional, so the mails greet them (decision 0036). */
  holderHint: 'We greet you by it in our emails.',
  notice:
    "Because this athlete is under 13, we need a parent's or legal guardian's consent. We collect the athlete's name, birthday, team, jersey number and the photos you add and, only if you turn face matching on, compare the athlete's face with the game footage of the events you request. We use this only to make the athlete's highlight reels and photos; we never sell it or show it to anyone but you (and relatives you send a share link to). You can see, change or delete it, or withdraw this consent, at any time from the dashboard or by writing to us; withdrawing deletes the athlete's face data.",
  label: "I am this athlete's parent or legal guardian and I give my consent as described above.",
  /** Shown after a registration: the consent counts once the address is confirmed. */
  pending: 'Your consent is recorded once you confirm your email address.',
  /** On the dashboard's profile card: the record, and withdrawing it. */
  given: (by: string, date: string) => `Given by ${by} on ${date}.`,
  withdraw: 'Withdraw consent',
  withdrawConfirm: {
    title: 'Withdraw your consent?',
    body: "Face matching is turned off and the athlete's face data is deleted at once. Face matching and new reel requests wait until you give consent again. To delete everything, close the account instead.",
    confirm: 'Withdraw consent',
    cancel: 'Keep it',
  },
  withdrawn: { title: 'Consent withdrawn', description: "Face matching is off and the athlete's face data has been deleted." },
  none: 'There is no consent to withdraw.',
  familyOnly: 'Only the family can withdraw this consent. This is not possible while viewing the site as a user.',
} as const;
