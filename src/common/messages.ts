// Every user-facing text of the product spec lives here, so the UI and the tests read one string.
// A toast is { title, description }; a plain message is a string.

export interface ToastText {
  title: string;
  description: string;
}

export const BRAND = {
  name: 'GET IT ON TAPE',
  headline: 'GET IT ON TAPE.',
  signUpToday: 'SIGN UP TODAY',
  copyright: '© 2024 Get It On Tape. All rights reserved.',
  /** The line under the headline on a reel's closing card. */
  reelOutro: 'Highlights found by face, cut for you.',
} as const;

export const NAV = {
  home: 'HOME',
  about: 'ABOUT',
  contact: 'CONTACT',
  login: 'LOGIN',
  signUp: 'SIGN UP',
  dashboard: 'DASHBOARD',
  logout: 'LOGOUT',
} as const;

export const SIGNED_OUT: ToastText = {
  title: 'Signed Out',
  description: "You've been successfully signed out.",
};

export const WELCOME_BACK: ToastText = {
  title: 'Welcome back',
  description: 'You have signed in successfully.',
};

export const AUTH_TOAST_TITLES = {
  signIn: 'Sign In Error',
  signUp: 'Signup Error',
  error: 'Error',
} as const;

/** Said with a 503 while the database is briefly out of reach (a restart, a failover). */
export const SERVICE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

/** The spec's sign-in and signup error table. */
export const AUTH_ERRORS = {
  failedToFetch: 'Unable to connect. Please check your internet connection.',
  failedToFetchFullSignup:
    'Unable to connect to authentication service. Please check your internet connection and try again.',
  invalidCredentials: 'Invalid email or password. Please try again.',
  emailNotConfirmed: 'Please check your email and click the confirmation link before signing in.',
  alreadyRegistered: 'An account with this email already exists. Please sign in instead.',
  alreadyRegisteredFullSignup: 'An account with this email already exists. Please try logging in instead.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  invalidEmail: 'Please enter a valid email address.',
  generic: 'Something went wrong. Please try again.',
  missingCredentials: 'You must provide either an email or phone number and a password',
  missingEmail: 'You must provide either an email or phone number.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  requestRejected: 'This request was rejected. Please reload the page and try again.',
  invalidResetLink: 'This reset link is invalid or has expired. Please request a new one.',
} as const;

/** The 429 text with the real wait, from the server's Retry-After. */
export function rateLimitedText(retryAfterSeconds: number): string {
  if (retryAfterSeconds <= 60) return AUTH_ERRORS.tooManyAttempts;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  if (minutes < 60) return `Too many attempts. Please wait ${minutes} minutes and try again.`;
  const hours = Math.ceil(minutes / 60);
  return `Too many attempts. Please wait ${hours === 1 ? 'an hour' : `${hours} hours`} and try again.`;
}

/** A body over the limit of a JSON route. */
export const REQUEST_TOO_LARGE = 'This request is too large.';
/** Input that passed the form but that the server cannot store. */
export const INVALID_INPUT = 'Some of what you entered contains characters that are not allowed. Please check and try again.';
/** A page address that cannot be read (malformed percent-encoding). */
export const BAD_PAGE_ADDRESS = 'This address is not valid.';

export const ACCOUNT_EXISTS: ToastText = {
  title: 'Account Already Exists',
  description: 'An account with this email already exists. Please try logging in instead.',
};

export const USERNAME_TAKEN: ToastText = {
  title: 'Username Taken',
  description: 'This username is already taken. Please choose a different username.',
};

export const RESET_FAILED_TITLE = 'Reset Failed';

export const EMAIL_REQUIRED: ToastText = {
  title: 'Email Required',
  description: 'Please enter your email address first.',
};

export const RESET_EMAIL_SENT: ToastText = {
  title: 'Check your email',
  description: 'If an account exists for that address, we sent a link to reset your password.',
};

export const PASSWORD_MISMATCH: ToastText = {
  title: 'Password Mismatch',
  description: 'Passwords do not match.',
};

export const PASSWORD_UPDATED: ToastText = {
  title: 'Password Updated',
  description: 'Your password has been changed. Sign in with your new password.',
};

export const SIGNUP_SUCCESS: ToastText = {
  title: 'Account created',
  description: 'We sent you a confirmation link. Check your email to finish signing up.',
};

export const SIGNUP_CONFIRM: ToastText = {
  title: 'Check your email',
  description: 'We sent you a confirmation link. Click it to activate your account.',
};

/** What makes a headshot we can match: shown wherever one is picked. */
export const HEADSHOT_ADVICE =
  "A clear, front-facing photo of the athlete's face, in good light, with nobody else in it. It stays private.";

/** While a large headshot is scaled down in the browser before it is sent. */
export const HEADSHOT_SHRINKING = 'Making the photo smaller for upload...';

export const HEADSHOT_FAILED =
  'Your account was created, but the headshot could not be saved. You can add a photo from your dashboard.';

/**
 * An admin's second factor (issue 21): the code prompt at sign-in and the server's answers.
 * The enrolment screen's texts are in admin-messages.ts.
 */
export const SECOND_FACTOR = {
  setupPath: '/two-factor/setup',
  promptPath: '/auth/two-factor',
  promptTitle: 'Enter your code',
  promptText: 'Open your authenticator app and enter the 6-digit code for Get It On Tape.',
  recoveryTitle: 'Use a recovery code',
  recoveryText: 'Enter one of the recovery codes you saved when you set up your authenticator app. Each works once.',
  codeLabel: '6-digit code',
  recoveryLabel: 'Recovery code',
  verify: 'Verify',
  verifying: 'Verifying...',
  useRecovery: 'Use a recovery code',
  useApp: 'Use your authenticator app',
  backToSignIn: 'Back to sign in',
  codeFormat: 'Enter the 6 digits your authenticator app shows.',
  recoveryFormat: 'A recovery code looks like abcde-12345.',
  invalidCode: 'That code is not right. Check your authenticator app and try again.',
  invalidRecoveryCode: 'That recovery code is not right, or it was used already.',
  codeUsed: 'This code was already used. Wait for the next one in your authenticator app.',
  expired: 'Your sign-in has expired. Please sign in again.',
  locked: 'Too many wrong codes. Please wait 15 minutes and try again.',
  wrongPassword: 'That password is not right.',
  /** requireAdmin's answers to an admin whose session has not passed the factor. */
  required: {
    title: 'Second factor required',
    enrol: 'Admin pages need a second factor. Set up an authenticator app first at /two-factor/setup.',
    verify: 'Admin pages need your authenticator code. Enter it at /auth/two-factor, or sign in again.',
  },
  notAdmin: 'Only admins set up a second factor here.',
  alreadyEnrolled: 'Your second factor is already set up.',
  failed: { title: 'Verification Failed' },
} as const;

export const ACCESS_DENIED: ToastText = {
  title: 'Access Denied',
  description: "You don't have admin privileges",
};

export const SIGN_OUT_FAILED_DASHBOARD = 'Failed to sign out. Please try again.';

export const CONTACT = {
  formTitle: 'MESSAGE US',
  panelTitle: 'CONTACT US',
  success: {
    title: 'Message Sent Successfully!',
    description: "We've received your message and will get back to you soon.",
  } satisfies ToastText,
  failure: {
    title: 'Message Failed to Send',
    description: 'Please try again or contact us directly.',
  } satisfies ToastText,
  failureAlert: 'Failed to send message. Please try again.',
} as const;

export const HOMEPAGE_SIGNUP = {
  saved: {
    title: "You're on the list!",
    description: 'Finish your athlete profile to request your first reel.',
  } satisfies ToastText,
} as const;

export const VERIFY_EMAIL = {
  title: 'Check your email',
  steps: [
    'Check your inbox (and your spam folder) for an email from us.',
    'Click the confirmation link in that email.',
    "You'll be redirected to your dashboard.",
  ],
  expiry: 'The link expires in 24 hours.',
  back: 'Back to Sign In',
} as const;

/** Shown on /signup only when our server cannot be reached before the form is filled in. */
export const CONNECTION_STATUS = {
  failed: 'Connection failed',
  continueAnyway: 'Continue Anyway',
} as const;

/** Field-level validation texts for forms (shared by browser and server validation). */
export const FIELD_ERRORS = {
  required: (label: string) => `${label} is required.`,
  email: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  jerseyNumber: 'Jersey number must be a whole number.',
  username: 'Username may use letters, numbers, dots, dashes and underscores (3-30 characters).',
  birthday: 'Please enter a valid date of birth.',
  state: 'Please choose a state.',
  event: 'Please choose an event.',
  tooLong: (label: string) => `${label} is too long.`,
  invalidCharacters: (label: string) => `${label} contains characters that are not allowed.`,
  /** A name appears in our mails and pages: only a name, never a message or a link. */
  notAName: (label: string) => `${label} can only be a name: no line breaks, links, email addresses or < > characters.`,
  guardianConsent: 'A parent or guardian must agree for athletes under 18.',
  parentName: "Enter your full name as the athlete's parent or guardian.",
  parentalConsent: "For an athlete under 13, a parent or guardian must give consent.",
} as const;


/**
 * The parent's or guardian's agreement for an athlete under 18, worded the same on the full
 * registration and on the dashboard's "finish your athlete's profile" step (the link goes to /terms).
 */
export const GUARDIAN_AGREEMENT = {
  before: "I am this athlete's parent or legal guardian, and I agree to the",
  link: 'Terms and Privacy Policy',
  after: "on their behalf. Athletes under 18 need a parent's or guardian's agreement.",
} as const;

export const AUTH_REQUIRED: ToastText = {
  title: 'Authentication Required',
  description: 'Please log in to continue.',
};

export const VERIFY_LINK_INVALID: ToastText = {
  title: 'Link Expired',
  description: 'This confirmation link has expired or was already used. Enter your email below and we will send you a new one.',
};

export const EMAIL_CONFIRMED: ToastText = {
  title: 'Email confirmed',
  description: 'Your account is ready. Welcome to Get It On Tape!',
};

/** A confirmation link opened again after the address was confirmed (a second click, an old mail). */
export const EMAIL_ALREADY_CONFIRMED = {
  title: 'Email already confirmed',
  description: 'This email address is already confirmed. Sign in with your password to continue.',
  signedIn: 'Your email address is already confirmed. There is nothing more to do.',
} as const;

export const VERIFICATION_RESENT: ToastText = {
  title: 'Check your email',
  description: 'If that address still needs confirming, a new link is on its way. It expires in 24 hours.',
};

export const INVALID_FILE_TYPE: ToastText = { title: 'Invalid File Type', description: 'Please upload an image file.' };
export const FILE_TOO_LARGE_5MB: ToastText = { title: 'File Too Large', description: 'Please upload an image smaller than 5MB.' };

/** Button and field labels the spec names. */
export const LABELS = {
  signIn: 'Sign In',
  createAccount: 'Create Account',
  forgotPassword: 'Forgot your password?',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  showPassword: 'Show Password',
  hidePassword: 'Hide Password',
  updatePassword: 'UPDATE PASSWORD',
  signOut: 'Sign Out',
  editProfile: 'Edit Profile',
  backToHome: 'Back to Home',
} as const;

