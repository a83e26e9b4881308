// What a reel costs: the spec's price, less the promo code's percent, in whole cents. The server
// alone computes it; the browser's idea of the price is never read.
import { REEL_PRICE_CENTS } from '../../common/constants';

export interface Price {
  /** The list price in cents. */
  listCents: number;
  /** The discount in cents, rounded to the nearest cent. */
  discountCents: number;
  /** What the buyer pays. */
  totalCents: number;
}

export function reelPrice(discountPercent = 0): Price {
  const percent = Math.min(100, Math.max(0, Math.trunc(discountPercent)));
  const discountCents = Math.round((REEL_PRICE_CENTS * percent) / 100);
  return { listCents: REEL_PRICE_CENTS, discountCents, totalCents: REEL_PRICE_CENTS - discountCents };
}
