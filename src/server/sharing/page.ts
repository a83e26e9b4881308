// The page a share link opens (issue 34, item 2): rendered on the server with no script, for a
// relative's phone with no account. It names the athlete by first name only, plays the reel and
// the vertical cut from this link's own media addresses, shows the photos when the family ticked
// them, and says plainly when the link no longer works. Never indexed.
import { SHARED_PAGE } from '../../common/dashboard-messages';
import { BRAND } from '../../common/messages';
import { escapeHtml } from '../http/html';

const day = (d: Date) => d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#f5f5f5;background:#0a0a0a;line-height:1.5}
header{border-bottom:1px solid #262626;padding:14px 20px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;font-size:14px;color:#e5e5e5}
main{max-width:960px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:28px;line-height:1.2;margin:0 0 4px}h2{font-size:18px;margin:32px 0 12px}
.event{color:#d4d4d4;margin:0}.note{color:#a3a3a3;font-size:14px;margin:8px 0 24px}
video{display:block;width:100%;background:#000;border-radius:10px}
.vertical{max-width:360px}
.photos{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
.photos img{width:100%;height:auto;border-radius:8px;display:block}
.state{max-width:520px;margin:80px auto;padding:0 20px;text-align:center}.state p{color:#d4d4d4}
a{color:#f87171}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><header>${escapeHtml(BRAND.name)}</header>${body}</body></html>`;
}

export interface SharedView {
  firstName: string;
  event: string;
  expiresAt: Date;
  /** Each video's address on this link, its kind and size. */
  videos: Array<{ src: string; poster: string | null; vertical: boolean; label: string }>;
  photos: Array<{ src: string; alt: string }>;
}

export function renderSharedReel(view: SharedView): string {
  const title = SHARED_PAGE.title(view.firstName);
  const videos = view.videos.length
    ? view.videos
        .map(
          (v) =>
            `<h2>${escapeHtml(v.label)}</h2><video class="${v.vertical ? 'vertical' : ''}" src="${escapeHtml(v.src)}"${v.poster ? ` poster="${escapeHtml(v.poster)}"` : ''} controls playsinline preload="metadata" aria-label="${escapeHtml(`${title}: ${v.label}`)}"></video>`,
        )
        .join('')
    : `<p class="note">${escapeHtml(SHARED_PAGE.noVideo)}</p>`;
  const photos = view.photos.length
    ? `<h2>${escapeHtml(SHARED_PAGE.photos)}</h2><div class="photos">${view.photos.map((p) => `<a href="${escapeHtml(p.src)}"><img src="${escapeHtml(p.src)}" alt="${escapeHtml(p.alt)}" loading="lazy"></a>`).join('')}</div>`
    : '';
  return page(
    title,
    `<main><h1>${escapeHtml(title)}</h1><p class="event">${escapeHtml(view.event)}</p><p class="note">${escapeHtml(SHARED_PAGE.sharedBy(day(view.expiresAt)))}</p>${videos}${photos}</main>`,
  );
}

export function renderLinkGone(kind: 'expired' | 'revoked' | 'unknown'): string {
  const [title, text] =
    kind === 'expired' ? [SHARED_PAGE.expiredTitle, SHARED_PAGE.expired] : kind === 'revoked' ? [SHARED_PAGE.revokedTitle, SHARED_PAGE.revoked] : [SHARED_PAGE.unknownTitle, SHARED_PAGE.unknown];
  return page(title, `<main class="state"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>`);
}
