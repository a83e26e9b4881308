// The price list (config/prices.json): what a family pays, said before anything is asked of them
// (the home page, the request form, the mails) and charged at checkout (server/payments/pricing.ts).
// Edit config/prices.json to change it; the web app is built with it.
import { PROCESSING_TIME, REEL_PRICE_CENTS } from './constants';

/** Whole dollars as "$150", others with their cents ("$127.50"). */
export function priceText(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

const reel = priceText(REEL_PRICE_CENTS);

export const PRICES = {
  /** Under the home page's headline. */
  home: `${reel} a reel, with a vertical cut for social media and the photo stills. Nothing to pay until your reel is ready.`,
  /** On the request form, before the family sends anything. */
  requestForm: `A highlight reel costs ${reel}, with a vertical cut for social media and the photo stills. Asking is free: you pay only once your reel is ready to purchase.`,
  /** In the mails: the price and what it buys. */
  mail: `The reel costs ${reel}, with a vertical cut for social media and the photo stills included.`,
  /** Reels the team makes by hand arrive this long after payment. */
  processing: PROCESSING_TIME,
} as const;
