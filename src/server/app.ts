// Wires the HTTP app: security middleware, the API routes of each domain, page guards, and the
// built web app with its client-side routes.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { accountRoutes } from './accounts/routes';
import { adminRoutes } from './admin/routes';
import { getViewer } from './auth/session';
import { authRoutes } from './auth/routes';
import { trustedOrigins } from './auth/auth';
import { contactRoutes } from './contact/routes';
import { dashboardRoutes } from './dashboard/routes';
import { realtimeRoutes } from './realtime/routes';
import { eventRoutes } from './events/routes';
import { mediaRoutes } from './media/routes';
import { orderRoutes, promoRoutes } from './orders/routes';
import { isLocalProvider, LOCAL_CHECKOUT_PATH } from './payments/local-provider';
import { SHARE_PATH } from './sharing/links';
import { sharedReelRoutes, shareLinkRoutes } from './sharing/routes';
import { checkoutRoutes, localCheckoutRoutes, WEBHOOK_PATHS, webhookRoutes } from './payments/routes';
import { profileRoutes } from './profiles/routes';
import { familyRoutes } from './family/routes';
import { matchAgainWithNewFaces } from './requests/reel-progress';
import { requestRoutes } from './requests/routes';
import { stillRoutes } from './stills/routes';
import { videoRoutes } from './videos/routes';
import type { AppDeps } from './deps';
import { BAD_PAGE_ADDRESS, SECOND_FACTOR } from '../common/messages';
import { jsonBodyLimit } from './http/body-limit';
import { apiError, onError } from './http/errors';
import { canonicalPagePath, decodePath } from './http/paths';
import { originCheck, securityHeaders } from './http/security';
import { sendFile } from './http/send-file';
import { observeRequests, operatorRoutes } from './observability/http';

/** The JSON API under /api; its type is what the web app's typed client is built from. */
export function createApi(deps: AppDeps) {
  return new Hono()
    .get('/health', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ ok: true });
    })
    .route('/', operatorRoutes({ db: deps.db, storage: deps.storage, metricsToken: deps.config.metricsToken }))
    .route('/account', accountRoutes(deps))
    .route('/contact', contactRoutes(deps))
    .route('/realtime', realtimeRoutes(deps))
    .route('/dashboard', dashboardRoutes(deps))
    .route('/profile', profileRoutes(deps, { matchAgain: (userId) => matchAgainWithNewFaces(deps, userId) }))
    .route('/events', eventRoutes(deps))
    .route('/requests', requestRoutes(deps))
    .route('/videos', videoRoutes(deps))
    .route('/stills', stillRoutes(deps))
    .route('/media', mediaRoutes(deps))
    .route('/orders', orderRoutes(deps))
    .route('/share-links', shareLinkRoutes(deps))
    .route('/family', familyRoutes(deps))
    .route('/promo-codes', promoRoutes(deps))
    .route('/checkout', checkoutRoutes(deps))
    .route('/payments', webhookRoutes(deps))
    .route('/admin', adminRoutes(deps));
}

export function createApp(deps: AppDeps) {
  const { auth, db, config } = deps;

  const app = new Hono<{ Variables: { requestId: string } }>();
  app.onError(onError);
  app.use(async (c, next) => {
    // Our own id for every request (a client's X-Request-Id is not trusted into our logs).
    const id = randomUUID();
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  });
  app.use(observeRequests());
  app.use(securityHeaders({ https: config.baseUrl.startsWith('https://') }));
  app.use('/api/*', originCheck(trustedOrigins(config), { except: WEBHOOK_PATHS }));
  app.use('/api/*', jsonBodyLimit());
  app.route('/api/auth', authRoutes(deps));
  app.route('/api', createApi(deps));
  app.all('/api/*', (c) => apiError(c, 404, 'NOT_FOUND', 'Not found'));

  // Pages answer only at their canonical path, so the guards below see every way of writing one.
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const url = new URL(c.req.url);
    const page = canonicalPagePath(url.pathname);
    if (page.kind === 'invalid') return c.text(BAD_PAGE_ADDRESS, 400);
    if (page.kind === 'redirect') return c.redirect(`${page.path}${url.search}`, 308);
    return next();
  });

  // Page guards: the server decides before any screen's code is sent.
  app.on('GET', ['/dashboard', '/dashboard/*'], async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return c.redirect(withError('/auth', c.req.query('error')), 302);
    return next();
  });
  app.on('GET', ['/admin', '/admin/*'], async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return c.redirect('/auth', 302);
    // An admin whose session has not passed the second factor: to enrolment, or to the code prompt.
    if (viewer.adminSecondFactor === 'enrol') return c.redirect(SECOND_FACTOR.setupPath, 302);
    if (viewer.adminSecondFactor === 'verify') return c.redirect(SECOND_FACTOR.promptPath, 302);
    if (!viewer.isAdmin) return c.redirect('/dashboard?denied=admin', 302);
    return next();
  });
  app.on('GET', ['/two-factor', '/two-factor/*'], async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return c.redirect('/auth', 302);
    return next();
  });

  // A share link's page and media, for relatives without an account (sharing/routes.ts).
  app.route(SHARE_PATH, sharedReelRoutes(deps));
  // The built-in test checkout's page, while no payment provider is configured.
  if (isLocalProvider(deps.payments)) app.route(LOCAL_CHECKOUT_PATH, localCheckoutRoutes(deps, deps.payments));

  // Hero videos and their stills: a provider's own files in HERO_DIR win over the built-in ones.
  app.get('/hero/:file{(desktop|mobile)\\.(mp4|jpg|webp)}', async (c) => {
    const name = c.req.param('file');
    const opts = { cacheControl: 'public, max-age=3600', method: c.req.method, rangeHeader: c.req.header('range') };
    const res = (await sendFile(path.join(config.heroDir, name), opts)) ?? (await sendFile(path.join(config.webDir, 'hero', name), opts));
    return res ?? c.notFound();
  });

  // The built web app: hashed assets cached for a year; the public pages as the build prerendered
  // them (scripts/build.mjs); every other page gets the app shell, which renders in the browser.
  // Source maps and dotfiles (the build stamp) are never served.
  app.get('*', async (c) => {
    const url = new URL(c.req.url);
    const decoded = decodePath(url.pathname);
    if (decoded === null) return c.text(BAD_PAGE_ADDRESS, 400);
    const rel = decoded.replace(/^\/+/, '');
    if (rel.endsWith('.map') || rel.split('/').some((part) => part.startsWith('.'))) return c.notFound();
    const send = (file: string, cacheControl: string) =>
      sendFile(path.join(config.webDir, file), {
        cacheControl,
        method: c.req.method,
        rangeHeader: c.req.header('range'),
        acceptEncoding: c.req.header('accept-encoding'),
      });
    if (rel && !rel.includes('..')) {
      const res = await send(rel, rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      if (res) return res;
      if (path.extname(rel)) return c.notFound();
    }
    // A prerendered page holds no query-dependent content; with a query the page renders in the browser.
    if (!url.search) {
      const page = await send(`pages/${rel || 'index'}.html`, 'no-cache');
      if (page) return page;
    }
    const index = await send('index.html', 'no-cache');
    return index ?? c.text('The web app is not built yet: run `npm run build`.', 503);
  });

  return app;
}

function withError(pathname: string, error: string | undefined): string {
  return error ? `${pathname}?error=${encodeURIComponent(error)}` : pathname;
}

export type ApiType = ReturnType<typeof createApi>;
