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

export const HEADSHOT_FAILED =
  'Your account was created, but the headshot could not be saved. You can add a photo from your dashboard.';

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

export const CONNECTION_STATUS = {
  checking: 'Checking connection...',
  connected: 'Connected',
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
  tooYoung: 'Athletes must be at least 13 years old to register.',
  guardianConsent: 'A parent or guardian must agree for athletes under 18.',
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

export const VERIFICATION_RESENT: ToastText = {
  title: 'Check your email',
  description: 'If that address still needs confirming, a new link is on its way. It expires in 24 hours.',
};

export const INVALID_FILE_TYPE: ToastText = { title: 'Invalid File Type', description: 'Please upload an image file.' };
export const FILE_TOO_LARGE_5MB: ToastText = { title: 'File Too Large', description: 'Please upload an image smaller than 5MB.' };

// ---- dashboard ----------------------------------------------------------------------------

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
  eventRequired: { title: 'Event Required', description: 'Please select an event before submitting.' } satisfies ToastText,
  gamesRequired: { title: 'Games Required', description: 'Please select at least one game before submitting.' } satisfies ToastText,
  submitted: {
    title: 'Request Submitted',
    description: "We've received your request. We'll let you know when your reel is ready to purchase.",
  } satisfies ToastText,
  failedTitle: 'Submission Failed',
  failedFallback: 'Failed to submit request. Please try again.',
  alreadyOpen: 'You already have an open request for this event.',
  unknownEvent: 'This event is not available. Please choose another event.',
  unknownGame: 'One of the selected games is not part of this event.',
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

export const MEDIA = {
  videosLoadFailed: 'Failed to load videos. Please refresh the page.',
  stillsLoadFailed: 'Failed to load photo stills. Please refresh the page.',
  downloadStarted: { title: 'Download Started', description: 'Your video is downloading.' } satisfies ToastText,
  downloadFailed: { title: 'Download Failed', description: 'Could not download video. Please try again.' } satisfies ToastText,
  thumbnailUpdated: { title: 'Thumbnail Updated', description: 'Your video thumbnail has been updated.' } satisfies ToastText,
  thumbnailFailed: 'Failed to save thumbnail.',
  notFound: 'Not found',
} as const;

export const CHECKOUT = {
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
} as const;

export const PROMO = {
  invalid: { title: 'Invalid Promo Code', description: 'This promo code is not valid.' } satisfies ToastText,
  checkFailed: 'Could not validate promo code. Please try again.',
  appliedTitle: 'Promo Code Applied',
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

// ---- admin ---------------------------------------------------------------------------------

/** The spec's "View as User" and "Exit Admin View". */
export const IMPERSONATION = {
  started: { title: 'Viewing as User', description: (email: string) => `Now viewing ${email}'s dashboard` },
  exited: { title: 'Exited User View', description: 'Returning to admin panel...' } satisfies ToastText,
  banner: (email: string) => `Admin View Mode: Viewing as ${email}`,
  bannerAdmin: (email: string) => `Signed in as ${email}`,
  exit: 'Exit Admin View',
  viewAsUser: 'View as User',
  notAllowed: "You don't have admin privileges",
  notAnAdmin: 'Admins cannot be viewed as users.',
  alreadyViewing: 'Exit the current user view first.',
  noSuchUser: 'User not found. Please refresh and try again.',
  notViewing: 'You are not viewing the site as a user.',
  refused: 'This is not possible while viewing the site as a user.',
} as const;

/** The admin area's texts (spec sections 2, 4, 5 and 8). */
export const ADMIN = {
  backToAdmin: 'Back to Admin',
  portal: {
    title: 'Admin Portal',
    stats: { totalUsers: 'Total Users', newThisWeek: 'New This Week', totalOrders: 'Total Orders', recentOrders: 'Recent Orders' },
    statsFailed: 'Failed to load dashboard stats',
    usersCard: { title: 'User Management', text: 'View, impersonate and manage users and their content.' },
    ordersCard: { title: 'Orders & Payments', text: 'See every order and its payment.' },
    waitingListCard: { title: 'Waiting List', text: 'Homepage sign-ups that have not finished registering.' },
    jobsTitle: 'Background Jobs',
    jobsNone: 'No failed jobs. Uploads and mail are flowing.',
    retry: 'Retry',
  },
  users: {
    title: 'USER MANAGEMENT',
    searchPlaceholder: 'Search by name, email, or phone...',
    filters: { submitted: 'Request Submitted', approved: 'Request Approved', delivered: 'Reels Delivered' },
    listTitle: 'ALL USERS',
    listDescription: 'Browse, impersonate and manage user content.',
    emptySearch: 'No users match your search',
    empty: 'No users found',
    loading: 'Loading users...',
    noName: 'No Name',
    noEmail: 'No email',
    noPhone: 'No phone',
    uploadStills: 'Upload Stills',
    uploadVideo: 'Upload Video',
    videos: 'Videos',
    table: { title: 'Title', type: 'Type', created: 'Created', paid: 'Paid', visible: 'Visible', actions: 'Actions' },
    loadFailed: { title: 'Error', description: 'Failed to load users' } satisfies ToastText,
  },
  requestButtons: {
    received: 'Request Received',
    approved: 'Approved',
    delivered: 'Reels Delivered',
    undo: 'Undo Approval',
    none: 'No Request',
    busy: 'Processing...',
  },
  requestToasts: {
    acknowledged: { title: 'Request Acknowledged', description: 'User can now see the purchase button' } satisfies ToastText,
    reverted: { title: 'Approval Reverted', description: 'Request is now back to pending status' } satisfies ToastText,
    delivered: { title: 'Reels Delivered', description: 'Request marked delivered. Dashboards will refresh.' } satisfies ToastText,
    acknowledgeFailed: 'Failed to Acknowledge',
    undoFailed: 'Failed to Undo',
    completeFailed: 'Failed to Complete',
    errorFallback: 'An error occurred.',
    changed: 'This request has changed since the page loaded. The list now shows it as it is.',
    notFound: 'This request no longer exists.',
  },
  deleteVideo: {
    title: 'Delete Video',
    body: (title: string) =>
      `Are you sure you want to delete "${title}"? This will remove the video from both the database and storage. This action cannot be undone.`,
    cancel: 'Cancel',
    confirm: 'Delete',
    busy: 'Deleting...',
    deleted: { title: 'Video Deleted', description: 'Video has been removed successfully' } satisfies ToastText,
    failedTitle: 'Delete Failed',
    failedFallback: 'Failed to delete video.',
  },
  stills: {
    title: 'Upload Stills',
    notes: 'Up to 3 photos, JPG, PNG or WebP, 5MB each. Uploading replaces the athlete\'s current stills.',
    tooMany: 'Too many files',
    tooManyText: 'Choose at most 3 photos.',
    invalidType: 'Invalid file type',
    heic: 'Please upload JPG, PNG, or WEBP files (HEIC is not supported by browsers).',
    noFiles: 'No files selected',
    noFilesText: 'Choose between 1 and 3 photos.',
    tooLarge: 'Each photo must be 5MB or smaller.',
    uploaded: (count: number) => ({ title: 'Stills Uploaded', description: `${count} ${count === 1 ? 'photo' : 'photos'} uploaded.` }) satisfies ToastText,
  },
  video: {
    title: 'Upload Video',
    titleLabel: 'Title',
    descriptionLabel: 'Description',
    tournamentLabel: 'Tournament',
    fileLabel: 'Video file',
    fileNotes: 'MP4, MOV or WebM, up to 500MB. The upload picks up where it stopped if the connection drops.',
    paid: 'Already Paid',
    notPaid: 'Not Yet Paid',
    titleRequired: 'Title required',
    noFile: 'No file selected',
    invalidType: 'Invalid file type',
    invalidTypeText: 'Please upload an MP4, MOV or WebM video.',
    tooLarge: 'The video is larger than 500MB.',
    uploadFailed: 'Upload failed',
    uploadFailedFallback: 'An error occurred while uploading',
    failedFallback: 'Failed to upload video',
    uploaded: {
      title: 'Upload successful',
      visibleNow: 'The video is processing and will be visible to the athlete right after.',
      afterPayment: 'The video is processing and will be visible to the athlete after payment.',
    },
    processing: 'Processing',
    processingFailed: 'Processing failed',
  },
  orders: {
    title: 'ORDERS & PAYMENTS',
    loading: 'Loading orders...',
    listTitle: 'ALL ORDERS',
    empty: 'No orders found',
    unknownUser: 'Unknown User',
    noEmail: 'No email',
    loadFailed: { title: 'Error', description: 'Failed to load orders' } satisfies ToastText,
  },
  waitingList: {
    title: 'WAITING LIST',
    description: 'People who started on the home page. Those who finished registering are marked.',
    columns: { name: 'Name', email: 'Email', date: 'Date' },
    clearAll: 'Clear All Submissions',
    clearConfirm: 'Clear every submission from this list? They are archived, not deleted, and can be brought back.',
    cleared: { title: 'Submissions Cleared', description: 'The list is empty. The entries were archived.' } satisfies ToastText,
    exportCsv: 'Export CSV',
    empty: 'No submissions yet',
  },
} as const;
