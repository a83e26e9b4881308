// Form schemas used by the browser (react-hook-form) and by the server (request validation),
// so both reject the same input with the same text.
import { z } from 'zod';
import { ADULT_AGE, CHILD_AGE, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, US_STATES } from './constants';
import { FIELD_ERRORS } from './messages';
import { CLOSE_ACCOUNT, REQUEST } from './dashboard-messages';

/**
 * Control characters (NUL above all, which PostgreSQL cannot store in text) have no place in
 * anything a person types; tabs and line breaks do.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const hasControlCharacters = (value: string) => CONTROL_CHARACTERS.test(value);

const required = (label: string, max = 200) =>
  z
    .string({ error: FIELD_ERRORS.required(label) })
    .trim()
    .min(1, FIELD_ERRORS.required(label))
    .max(max, FIELD_ERRORS.tooLong(label))
    .refine((v) => !hasControlCharacters(v), FIELD_ERRORS.invalidCharacters(label));

/**
 * What a name may not hold (issue 33, finding 4): a name opens mails ("Hi <name>,") and shows on
 * admin pages, so line breaks, links, addresses and markup would let anyone write our mails.
 */
const NOT_A_NAME = /[\r\n\t<>@]|:\/\/|\bwww\.|\bhttps?:|\b[a-z0-9-]+\.(?:com|net|org|info|io|co|biz|xyz|ru|cn|me|app|link|ly|us|uk|de|site|online|top|pay|example)\b/i;
export const isPlainName = (value: string) => !NOT_A_NAME.test(value);

/** A person's name: required, and only a name. */
const personName = (label: string, max: number) => required(label, max).refine(isPlainName, FIELD_ERRORS.notAName(label));

export const emailSchema = z
  .string({ error: FIELD_ERRORS.email })
  .trim()
  .toLowerCase()
  .pipe(z.email(FIELD_ERRORS.email).max(254, FIELD_ERRORS.email));

const password = z
  .string({ error: FIELD_ERRORS.required('Password') })
  .min(1, FIELD_ERRORS.required('Password'))
  .min(MIN_PASSWORD_LENGTH, FIELD_ERRORS.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, FIELD_ERRORS.tooLong('Password'));

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, FIELD_ERRORS.tooLong(label))
    .refine((v) => !hasControlCharacters(v), FIELD_ERRORS.invalidCharacters(label))
    .nullish()
    .transform((v) => (v ? v : null));

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, FIELD_ERRORS.required('Password')),
});
export type SignInInput = z.input<typeof signInSchema>;
export type SignInValues = z.output<typeof signInSchema>;

export const resendVerificationSchema = z.object({ email: emailSchema });

export const simpleSignUpSchema = z.object({
  fullName: personName('Full Name', 120),
  email: emailSchema,
  password,
});
export type SimpleSignUpInput = z.input<typeof simpleSignUpSchema>;
export type SimpleSignUpValues = z.output<typeof simpleSignUpSchema>;

export const homepageSignupSchema = z.object({
  firstName: personName('First name', 60),
  lastName: personName('Last name', 60),
  email: emailSchema,
});
export type HomepageSignupInput = z.input<typeof homepageSignupSchema>;
export type HomepageSignupValues = z.output<typeof homepageSignupSchema>;

export const contactSchema = z.object({
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  email: emailSchema,
  phone: optionalText('Phone', 40),
  subject: required('Subject', 200),
  message: required('Message', 5000),
});
export type ContactInput = z.input<typeof contactSchema>;
export type ContactValues = z.output<typeof contactSchema>;

/** A shirt number 0 to 9999, typed or sent as a number; empty is none. */
function jerseyNumber(message: string) {
  return z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v === '') return null;
      const n = typeof v === 'number' ? v : Number(v.trim());
      if (!Number.isInteger(n) || n < 0 || n > 9999) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });
}

const usernamePattern = /^[a-zA-Z0-9._-]{3,30}$/;

/** A real calendar date (YYYY-MM-DD) in the past, less than 120 years ago. */
function isPlausibleBirthday(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  const now = new Date();
  return date < now && date.getUTCFullYear() > now.getUTCFullYear() - 120;
}

/** Whole years from a YYYY-MM-DD birthday to `today` (a date, compared by its UTC calendar day). */
export function ageOn(birthday: string, today = new Date()): number {
  const [y, m, d] = birthday.split('-').map(Number) as [number, number, number];
  const ty = today.getUTCFullYear();
  const tm = today.getUTCMonth() + 1;
  const td = today.getUTCDate();
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

/** A checkbox as a form or JSON sends it. */
const checkbox = z
  .union([z.boolean(), z.literal('true'), z.literal('on'), z.literal('false'), z.literal('')])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on');

export const registrationFields = z.object({
  firstName: personName('First name', 60),
  lastName: personName('Last name', 60),
  email: emailSchema,
  username: z
    .string({ error: FIELD_ERRORS.required('Username') })
    .trim()
    .min(1, FIELD_ERRORS.required('Username'))
    .regex(usernamePattern, FIELD_ERRORS.username),
  password,
  birthday: z
    .string({ error: FIELD_ERRORS.required('Birthday') })
    .min(1, FIELD_ERRORS.required('Birthday'))
    .refine(isPlausibleBirthday, FIELD_ERRORS.birthday),
  state: z.enum(US_STATES, { error: FIELD_ERRORS.state }),
  city: required('City', 100),
  phoneNumber: optionalText('Phone number', 40),
  teamName: required('Team name', 100),
  /** An event's id or OTHER_EVENT's value; the server checks the id against the events it runs. */
  event: z
    .string({ error: FIELD_ERRORS.event })
    .trim()
    .min(1, FIELD_ERRORS.event)
    .max(100, FIELD_ERRORS.event),
  jerseyNumber: jerseyNumber(FIELD_ERRORS.jerseyNumber),
  /** A parent or guardian agreed to the terms: required for athletes under 18. */
  guardianConsent: checkbox,
  /** Under 13: the parent's or guardian's own name and consent to PARENTAL_CONSENT's notice (decision 0035). */
  parentName: optionalText("Parent or guardian's name", 120).refine((v) => v === null || isPlainName(v), FIELD_ERRORS.notAName("Parent or guardian's name")),
  parentalConsent: checkbox,
  /** The account holder agrees that the athlete may be found by face (optional; the dashboard changes it). */
  faceMatchConsent: checkbox,
});

/**
 * The terms: any age; under 18 only with a parent's or guardian's agreement; under 13 also with
 * the parent's or guardian's name and their consent to the notice (COPPA; decision 0035).
 */
function guardianRule(v: { birthday: string; guardianConsent: boolean; parentName?: string | null; parentalConsent?: boolean }, ctx: z.RefinementCtx) {
  const age = ageOn(v.birthday);
  if (age < ADULT_AGE && !v.guardianConsent) {
    ctx.addIssue({ code: 'custom', path: ['guardianConsent'], message: FIELD_ERRORS.guardianConsent });
  }
  if (age < CHILD_AGE && !v.parentName) ctx.addIssue({ code: 'custom', path: ['parentName'], message: FIELD_ERRORS.parentName });
  if (age < CHILD_AGE && !v.parentalConsent) ctx.addIssue({ code: 'custom', path: ['parentalConsent'], message: FIELD_ERRORS.parentalConsent });
}

export const registrationSchema = registrationFields.superRefine(guardianRule);
export type RegistrationInput = z.input<typeof registrationSchema>;
export type Registration = z.output<typeof registrationSchema>;

/**
 * The dashboard's "finish your athlete's profile" step after the quick sign-up: the birthday and
 * the guardian's agreement with exactly the registration's rules and texts.
 */
export const athleteAgeSchema = registrationFields.pick({ birthday: true, guardianConsent: true, parentName: true, parentalConsent: true }).superRefine(guardianRule);
export type AthleteAgeInput = z.input<typeof athleteAgeSchema>;
export type AthleteAge = z.output<typeof athleteAgeSchema>;

/**
 * "Add athlete" on the dashboard (decision 0036): the athlete's own fields with the registration's
 * rules and texts; the parent's name, required under 13 (consent), is the holder's own otherwise.
 */
export const addAthleteSchema = registrationFields
  .pick({ firstName: true, lastName: true, birthday: true, teamName: true, jerseyNumber: true, guardianConsent: true, parentName: true, parentalConsent: true })
  .superRefine(guardianRule);
export type AddAthleteInput = z.input<typeof addAthleteSchema>;
export type AddAthlete = z.output<typeof addAthleteSchema>;

export const resetPasswordSchema = z.object({
  token: z.string().min(1),
  newPassword: password,
});

/** The first message of a zod error, for a toast or an API error body. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

/** Edit Profile: names required; the rest trimmed, empty saved as null; jersey an integer or null. */
export const profileEditSchema = z.object({
  firstName: personName('First name', 60),
  lastName: personName('Last name', 60),
  teamName: optionalText('Team name', 100),
  phone: optionalText('Phone', 40),
  city: optionalText('City', 100),
  state: optionalText('State', 60),
  jerseyNumber: registrationFields.shape.jerseyNumber,
});
export type ProfileEditInput = z.input<typeof profileEditSchema>;
export type ProfileEdit = z.output<typeof profileEditSchema>;

export const highlightRequestSchema = z.object({
  eventId: z.string({ error: REQUEST.eventRequired.description }).min(1, REQUEST.eventRequired.description).max(100),
  games: z.array(z.string().min(1).max(100)).max(50).default([]),
  /** At an event with rosters: the athlete's team and shirt number (requests/service.ts checks them). */
  team: z.string().trim().max(80, REQUEST.unknownTeam).nullish(),
  jerseyNumber: jerseyNumber(REQUEST.numberRequired),
});
export type HighlightRequestInput = z.input<typeof highlightRequestSchema>;

/** Closing the account (POST /api/account/close): the password again, and the tick saying it cannot be undone. */
export const closeAccountSchema = z.object({
  password: z.string().min(1, CLOSE_ACCOUNT.wrongPassword).max(200, CLOSE_ACCOUNT.wrongPassword),
  understood: z.literal(true, { error: CLOSE_ACCOUNT.mustUnderstand }),
});
