// Text put into HTML (or SVG) that the server writes itself: the mails, the share page, the test
// checkout and the reel's title cards.

/** The text with &, <, >, " and ' as entities: safe inside elements and quoted attributes. */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
