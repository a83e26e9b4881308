// Text of the Terms of Service and the Privacy Policy shown on /terms.
// The spec fixes the shape (13 terms sections, 10 privacy sections, contact by e-mail) and the facts
// (minimum age 13, a parent or guardian for anyone under 18, non-refundable payments, a 90-day
// retention example); the wording is ours. Company name and address come from config/company.json.
import { COMPANY } from '../../../common/company';

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export const LEGAL_UPDATED = 'November 1, 2024';

const NAME = COMPANY.name;
const EMAIL = COMPANY.email;

export const TERMS_SECTIONS: LegalSection[] = [
  {
    title: 'Acceptance of These Terms',
    paragraphs: [
      `These Terms of Service are an agreement between you and ${NAME} ("we", "us", "our") and govern your use of our website, your account and everything we deliver to you, including highlight reels and photo stills (together, the "Service").`,
      'By creating an account, submitting a highlight request or making a purchase, you confirm that you have read and accept these Terms and our Privacy Policy below. If you are accepting on behalf of an athlete under 18, you accept them both for yourself and for that athlete. If you do not agree, please do not use the Service.',
    ],
  },
  {
    title: 'The Service',
    paragraphs: [
      'We film youth sports games with several cameras placed around the court or field. From that footage we produce personalised highlight reels and photo stills of individual athletes, which we deliver to the athlete\'s account.',
      'We film only the events and games we have arranged to cover. Being filmed does not mean a reel exists: a reel is made only after an account holder requests one for a specific event and games and completes the purchase.',
    ],
  },
  {
    title: 'Eligibility and Accounts',
    paragraphs: [
      'An athlete of any age may have an account. Athletes under 18 use the Service only with the consent of a parent or legal guardian, who is responsible for the account and every request and purchase, and may create and manage it for the athlete. For an athlete under 13, a parent or guardian makes the account and gives verifiable consent as our Privacy Policy describes.',
      `You agree to give accurate information when you register, including the athlete's name, team, event and jersey number, and to keep it up to date from your dashboard. You are responsible for keeping your password confidential and for all activity under your account. Tell us at once at ${EMAIL} if you believe someone else has used it.`,
      'One account belongs to one athlete. Do not create accounts for people you are not authorised to act for.',
    ],
  },
  {
    title: 'Athlete Profiles and Headshots',
    paragraphs: [
      'To build a reel we need a clear, recent photo of the athlete\'s face (the "headshot"), uploaded to the athlete profile. The headshot should show one person, facing the camera, without sunglasses or heavy shadows. A poor headshot can make it impossible to find the athlete in the footage.',
      'By uploading a headshot you confirm that it shows the athlete the account belongs to and that you have the right to provide it; for an athlete under 18, that you are the parent or guardian or act with their permission. Headshots are private: they are used only to identify the athlete in our footage and are never published, shared with other users or shown on public pages.',
    ],
  },
  {
    title: 'How We Find Your Athlete',
    paragraphs: [
      'Our software uses face recognition, comparing the headshot with the footage of the games you request, together with jersey-number recognition, reading the number on the athlete\'s uniform, to locate the moments in which the athlete appears. Our editors then review and assemble the highlights.',
      'Recognition depends on camera angles, lighting, distance, uniforms and how much the athlete is on screen. We cannot promise that every play, or any particular play, will be found or included. Keeping the jersey number and team name in the profile accurate improves the results.',
    ],
  },
  {
    title: 'Highlight Requests, Processing and Delivery',
    paragraphs: [
      'You request a reel from your dashboard by choosing the event and the games the athlete played in. Our team reviews each request to confirm that we filmed those games before the request can be purchased; until then it is shown as pending.',
      'Once a request is purchased, processing usually takes 7–10 business days. When the reel is ready it appears on your dashboard, where you can watch and download the videos and photo stills. Processing times are estimates, and busy tournament weekends can take longer; we will contact you by e-mail if a delay is expected to be significant.',
    ],
  },
  {
    title: 'Prices and Payment',
    paragraphs: [
      'The price of a highlight reel is stated on your dashboard at the time of purchase, before you pay, and is charged in U.S. dollars. Promotional codes, when offered, reduce that price by the percentage shown when the code is applied; they have no cash value and cannot be combined unless we say so.',
      'Payments are handled by a third-party payment processor. We do not receive or store your full card number. A purchase is complete when the processor confirms the payment, and you will see the order on your dashboard.',
    ],
  },
  {
    title: 'All Sales Are Final',
    paragraphs: [
      'Payments are non-refundable. Because production of a reel begins as soon as the purchase is confirmed, we do not offer refunds, credits or exchanges, including for changes of mind, for plays that were not captured or identified, or for requests you no longer need.',
      `If a delivered file is damaged, will not play or belongs to a different athlete, write to ${EMAIL} and we will correct or re-deliver it. Nothing in these Terms limits rights you have under consumer protection laws that cannot be waived by agreement.`,
    ],
  },
  {
    title: 'Ownership and Permitted Use of Reels and Stills',
    paragraphs: [
      `The footage, highlight reels and photo stills we produce, and the software and design of the Service, belong to ${NAME} or its licensors. When you purchase a reel we grant you a personal, non-exclusive, non-transferable licence to view, download, keep and share the reel and stills for personal, non-commercial purposes, such as sending them to family, posting them on your own social media accounts or including them in a college recruiting profile.`,
      'You may not sell, license or otherwise use our footage commercially, remove our credits or markings, or present the footage as your own production, without our written permission.',
    ],
  },
  {
    title: 'Acceptable Use',
    paragraphs: [
      'You agree not to: access or try to access another person\'s account, videos, stills or headshot; upload a headshot of someone you are not authorised to act for; share your login with people outside the athlete\'s family; copy, scrape or bulk-download content from the Service by automated means; interfere with or probe the security of the Service; or use reels or stills to harass, embarrass or endanger any athlete.',
      'We may suspend or close an account that breaks these rules, without a refund, and report unlawful activity to the appropriate authorities.',
    ],
  },
  {
    title: 'Filming at Events',
    paragraphs: [
      'We film at events with the permission of the event organiser. Other athletes, coaches, officials and spectators may appear in the footage and in reels made for other athletes, as they would in any broadcast or team video.',
      `If you do not want an athlete to appear in reels delivered to other families, or you would like a particular still or clip reviewed, contact us at ${EMAIL} with the athlete's name, event and game, and we will review the request promptly.`,
    ],
  },
  {
    title: 'Disclaimers and Limitation of Liability',
    paragraphs: [
      'The Service is provided "as is" and "as available". To the fullest extent permitted by law, we disclaim all warranties, express or implied, including that the Service will be uninterrupted or error-free or that recognition will find every appearance of the athlete.',
      'To the fullest extent permitted by law, we are not liable for indirect, incidental, special or consequential damages, or for lost data or opportunities, arising from your use of the Service. Our total liability for any claim relating to the Service is limited to the amount you paid us in the twelve months before the claim arose.',
    ],
  },
  {
    title: 'Changes, Termination and Contact',
    paragraphs: [
      'We may update the Service and these Terms from time to time. When we make material changes we will update the date at the top of this page and, where appropriate, tell you by e-mail; continuing to use the Service after a change means you accept the updated Terms. You may stop using the Service at any time, and you can ask us to close your account by e-mail.',
      `Questions about these Terms can be sent to ${NAME} at ${EMAIL}.`,
    ],
  },
];

export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    title: 'Who We Are and What This Policy Covers',
    paragraphs: [
      `${NAME} films youth sports games and turns the footage into highlight reels and photo stills for athletes and their families. This Privacy Policy explains what personal information we collect through our website and the Service, how we use it, who we share it with, how long we keep it and the choices you have.`,
      'Because many of the athletes we film are minors, we try to collect only what we need to make and deliver a reel, and to keep the most sensitive information, headshots and footage, private to the athlete\'s account.',
    ],
  },
  {
    title: 'Information We Collect',
    paragraphs: [
      'Account and profile information you give us: name, e-mail address, username, password (stored only in hashed form), date of birth, city and state, phone number (optional), team name, event, jersey number and the athlete\'s headshot, plus any profile picture or banner you choose to add.',
      'Information about your requests and orders: the events and games you request, the status of each request, promotional codes applied and the amount paid. Payment card details are entered with our payment processor and are not received or stored by us.',
      'Footage we record: video and photos of the games we film, which may show the athlete, teammates, opponents and spectators. Technical information: sign-in sessions, IP address, browser type and basic logs we need to keep the Service secure and working. We use cookies only to keep you signed in and to protect forms; we do not use advertising cookies.',
    ],
  },
  {
    title: 'How We Use Information',
    paragraphs: [
      'We use personal information to create and run your account; to identify the athlete in footage of the games you request and to produce, deliver and support the reels and stills you purchase; to process payments and keep records of orders; to send service e-mails such as account confirmation, password reset and delivery notices; and to answer messages you send us.',
      'We also use it to keep the Service secure, to prevent fraud and abuse and to meet our legal obligations. We do not sell personal information, and we do not use it for advertising or to build marketing profiles.',
    ],
  },
  {
    title: 'Face Recognition and Jersey-Number Recognition',
    paragraphs: [
      'To find an athlete in the footage, our software creates a mathematical description of the face in the headshot (a face template) and compares it with faces in the video of the games you requested. It also reads jersey numbers in the video and matches them with the number in the athlete\'s profile. The matches are reviewed by our editors.',
      'Face templates are made only when you, or for a minor the parent or guardian, turn on face matching; when it is chosen at registration, only once the e-mail address has been confirmed. You can turn it off at any time on the dashboard. They are used only to build reels: the athlete\'s own, and, within the same event, to make sure one athlete\'s face is not put in another athlete\'s reel. They are not shown to other users, sold or used for anything else, and they are deleted when the headshot is replaced or removed or the account is closed. Turning face matching off deletes at once the athlete\'s face templates and the matches found in the footage, keeping only the reels you already received; we will then be unable to produce new reels for that athlete.',
    ],
  },
  {
    title: 'Who Can See Headshots, Videos and Stills',
    paragraphs: [
      'Headshots are private. They are visible only to the account holder and to the members of our team who need them to produce reels; they are never shown on public pages or to other users.',
      'Finished videos and stills are available only in the account they were made for, and are served only after we check that the person asking is signed in to that account or is a member of our team. We do not publish an athlete\'s reel or stills, or use them to promote the Service, without the account holder\'s written permission.',
    ],
  },
  {
    title: 'How We Share Information',
    paragraphs: [
      'We share personal information only with service providers that help us run the Service, such as hosting and file storage, e-mail delivery and payment processing, under contracts that allow them to use it only on our instructions and require them to protect it.',
      'We may also disclose information when required by law or to protect the safety of athletes, our users or the public, and to a successor if our business is sold or merged, in which case this Policy will continue to apply to the information transferred.',
    ],
  },
  {
    title: 'How Long We Keep Information',
    paragraphs: [
      'We keep personal information only as long as we need it for the purposes described here. For example, raw footage of a game is kept for 90 days after the event (or after it was uploaded, if that was later) so that families can request reels, and is then deleted, with the face templates made from it, unless it is needed for a request that has already been made and not yet delivered. The face templates our software makes of people in the footage are kept only while families can ask for reels of that event (30 days unless the event says otherwise) and are then deleted, except those matched to an athlete whose family asked; they are stored encrypted.',
      'Finished reels and stills stay available in your account while it is open. Account, profile and headshot information is kept until you delete it or close your account. Closing the account (from the dashboard, or by asking us) erases at once the account, profile, headshot and photos, face templates, requests, videos and stills; we then send one e-mail to say it is done. Records of orders and payments are kept for as long as tax and accounting laws require, without your name or address. A registration whose e-mail address is never confirmed is erased after 7 days.',
    ],
  },
  {
    title: 'Children and Teens',
    paragraphs: [
      'Athletes under 18 need a parent or guardian to consent to their use of the Service, including the headshot and its use for face recognition. For a child under 13 we follow COPPA: a parent or guardian registers the child, is told what we collect and why (only to make the child\'s reels; never sold or disclosed), and consents from a confirmed email address; we record the consent and confirm it by email. The parent may review or delete the child\'s information, or withdraw consent, at any time from the dashboard.',
      `If we learn that we have collected personal information from a child under 13 without verified parental consent, we will delete it. A parent or guardian who believes this has happened, or who wants to review or delete their child's information, can contact us at ${EMAIL}.`,
    ],
  },
  {
    title: 'How We Protect Information',
    paragraphs: [
      'We protect personal information with measures appropriate to its sensitivity: encrypted connections, passwords stored only as hashes, private file storage that is never reachable from a public address, and access limited to the team members who need it for their work, each with an account of their own.',
      'No system is completely secure. If we become aware of a security incident that affects your personal information, we will notify you and the relevant authorities as the law requires.',
    ],
  },
  {
    title: 'Your Choices, Rights and Contact',
    paragraphs: [
      'You can view and correct most of your information at any time from your dashboard. You can close your account yourself from the dashboard ("Close account"), which erases it at once. You may also ask us for a copy of your personal information, ask us to delete it or close your account for you, or withdraw consent to face recognition. Depending on where you live, you may have additional rights under local law.',
      `We may update this Policy from time to time and will change the date at the top of this page when we do; material changes will also be announced by e-mail. To exercise your rights or ask a question about privacy, e-mail ${NAME} at ${EMAIL}. We will verify your identity and respond within the time the law requires.`,
    ],
  },
];
