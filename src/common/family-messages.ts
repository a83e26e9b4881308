// A family's athletes (issue 34, item 1; decision 0036): the dashboard's switcher, "Add athlete"
// and removing one athlete. In a module of its own so the public pages' bundle does not carry it.

export const FAMILY = {
  switcherLabel: 'Athlete',
  add: 'Add athlete',
  addTitle: 'Add an athlete',
  addIntro: 'A brother, a sister, a teammate you look after: each athlete has their own profile, photos, requests and reels. Mails about all of them come to you.',
  addSubmit: 'Add athlete',
  added: (name: string) => ({ title: 'Athlete added', description: `${name} is on your account. Add a clear photo of ${name}'s face next.` }),
  switched: (name: string) => `Now showing ${name}`,
  remove: 'Remove this athlete',
  removeTitle: (name: string) => `Remove ${name}?`,
  removeBody: (name: string) =>
    `${name}'s profile, photos and face data, consents, requests, videos and photos are erased at once and cannot be brought back. Your account and your other athletes stay as they are.`,
  removePassword: 'Your password',
  removeConfirm: 'Remove and erase',
  removed: (name: string) => ({ title: 'Athlete removed', description: `${name}'s profile and everything in it has been erased.` }),
  onlyAthlete: "This is the only athlete on your account: to erase it, close the account.",
  notYourAthlete: 'That athlete is not on this account.',
  tooMany: (max: number) => `An account can hold at most ${max} athletes.`,
  confirmFirst: 'Confirm your email address first: it is where we send everything about your athletes.',
  familyOnly: 'Only the family can add or remove an athlete. This is not possible while viewing the site as a user.',
} as const;

/** The most athletes one account holds: a large family, a coach's own children, never a whole team. */
export const FAMILY_MAX_ATHLETES = 8;

/** The registration met a family's address: the athlete typed is added from the dashboard instead (shown on the sign-in page). */
export const anotherAthleteNote = (name: string) =>
  `Registering another athlete? Sign in: "Add athlete" on your dashboard then opens with ${name || 'the athlete'}'s details as you typed them.`;
