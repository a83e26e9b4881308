// Security headers for every response, and the origin check for every state-changing request.
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { AUTH_ERRORS } from '../../common/messages';
import { apiError } from './errors';

export function securityHeaders(opts: { https: boolean }): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Radix and sonner set inline style attributes; no inline script is ever allowed.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: opts.https ? 'max-age=31536000; includeSubDomains' : false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request unless its Origin is one of ours. Browsers send Origin on
 * every POST/PUT/PATCH/DELETE made by fetch or a form, so a missing Origin means the request did
 * not come from our pages (better-auth lets those through; we do not).
 */
export function originCheck(allowed: string[], opts: { except?: readonly string[] } = {}): MiddlewareHandler {
  const origins = new Set(allowed);
  // Server-to-server endpoints (payment webhooks) prove who they are by a signature instead.
  const except = new Set(opts.except ?? []);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || except.has(c.req.path)) return next();
    const origin = c.req.header('origin');
    if (!origin || !origins.has(origin)) {
      return apiError(c, 403, 'INVALID_ORIGIN', AUTH_ERRORS.requestRejected);
    }
    return next();
  };
}
