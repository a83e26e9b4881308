// Form schemas used by the browser (react-hook-form) and by the server (request validation),
// so both reject the same input with the same text.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, REGISTRATION_EVENTS, US_STATES } from './constants';
import { FIELD_ERRORS, REQUEST } from './messages';

const required = (label: string, max = 200) =>
  z
    .string({ error: FIELD_ERRORS.required(label) })
    .trim()
    .min(1, FIELD_ERRORS.required(label))
    .max(max, `${label} is too long`);

const email = z
  .string({ error: FIELD_ERRORS.email })
  .trim()
  .toLowerCase()
  .pipe(z.email(FIELD_ERRORS.email).max(254, FIELD_ERRORS.email));

const password = z
  .string({ error: FIELD_ERRORS.required('Password') })
  .min(1, FIELD_ERRORS.required('Password'))
  .min(MIN_PASSWORD_LENGTH, FIELD_ERRORS.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, 'Password is too long');

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const signInSchema = z.object({
  email,
  password: z.string().min(1, FIELD_ERRORS.required('Password')),
});
export type SignInInput = z.input<typeof signInSchema>;
export type SignInValues = z.output<typeof signInSchema>;

export const simpleSignUpSchema = z.object({
  fullName: required('Full Name', 120),
  email,
  password,
});
export type SimpleSignUpInput = z.input<typeof simpleSignUpSchema>;
export type SimpleSignUpValues = z.output<typeof simpleSignUpSchema>;

export const homepageSignupSchema = z.object({
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  email,
});
export type HomepageSignupInput = z.input<typeof homepageSignupSchema>;
export type HomepageSignupValues = z.output<typeof homepageSignupSchema>;

export const contactSchema = z.object({
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  email,
  phone: optionalText(40),
  subject: required('Subject', 200),
  message: required('Message', 5000),
});
export type ContactInput = z.input<typeof contactSchema>;
export type ContactValues = z.output<typeof contactSchema>;

const usernamePattern = /^[a-zA-Z0-9._-]{3,30}$/;

/** The age a birthday must give: the terms set 13 as the minimum; an adult cannot be 120. */
function isPlausibleBirthday(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  const now = new Date();
  return date < now && date.getUTCFullYear() > now.getUTCFullYear() - 120;
}

export const registrationSchema = z.object({
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  email,
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
  phoneNumber: optionalText(40),
  teamName: required('Team name', 100),
  event: z.enum(
    REGISTRATION_EVENTS.map((e) => e.value) as [string, ...string[]],
    { error: FIELD_ERRORS.event },
  ),
  jerseyNumber: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v === '') return null;
      const n = typeof v === 'number' ? v : Number(v.trim());
      if (!Number.isInteger(n) || n < 0 || n > 9999) {
        ctx.addIssue({ code: 'custom', message: FIELD_ERRORS.jerseyNumber });
        return z.NEVER;
      }
      return n;
    }),
});
export type RegistrationInput = z.input<typeof registrationSchema>;
export type Registration = z.output<typeof registrationSchema>;

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
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  teamName: optionalText(100),
  phone: optionalText(40),
  city: optionalText(100),
  state: optionalText(60),
  jerseyNumber: registrationSchema.shape.jerseyNumber,
});
export type ProfileEditInput = z.input<typeof profileEditSchema>;
export type ProfileEdit = z.output<typeof profileEditSchema>;

export const highlightRequestSchema = z.object({
  eventId: z.string({ error: REQUEST.eventRequired.description }).min(1, REQUEST.eventRequired.description),
  games: z.array(z.string().min(1)).max(50).default([]),
});
export type HighlightRequestInput = z.input<typeof highlightRequestSchema>;
