// Page paths in one canonical form, so a guard written for "/admin" also sees "/Admin",
// "//admin", "/admin/" and "/admin%2F": the server answers a non-canonical page path with a
// redirect to its canonical form, and only canonical paths reach the guards and the web app.
import path from 'node:path';
import { hasControlCharacters } from '../../common/schemas';

export type PagePath =
  | { kind: 'canonical'; path: string }
  | { kind: 'redirect'; path: string }
  /** Malformed percent-encoding, or characters no path of ours has. */
  | { kind: 'invalid' };

/** Decodes a URL path; null when its percent-encoding is malformed or it holds control characters. */
export function decodePath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  return hasControlCharacters(decoded) ? null : decoded;
}

/** True for a path that names a file (an asset, a video): those are matched exactly. */
export function isFilePath(decoded: string): boolean {
  return path.posix.extname(decoded) !== '' || decoded.startsWith('/assets/');
}

/** The canonical form of a page path: decoded, single slashes, no dot segments, lower case, no trailing slash. */
export function canonicalPagePath(rawPath: string): PagePath {
  const decoded = decodePath(rawPath);
  if (decoded === null) return { kind: 'invalid' };
  let canonical = path.posix.normalize(`/${decoded}`).replace(/\/+$/, '') || '/';
  if (!isFilePath(canonical)) canonical = canonical.toLowerCase();
  // Compare with the raw path: "/admin%2F" decodes to "/admin/" and must be redirected too.
  const alreadyCanonical = canonical === rawPath || encodeURI(canonical) === rawPath;
  return alreadyCanonical ? { kind: 'canonical', path: canonical } : { kind: 'redirect', path: encodeURI(canonical) };
}
