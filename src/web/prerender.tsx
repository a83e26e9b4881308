// Renders a page of the app to HTML at build time (scripts/build.mjs), so the public pages arrive
// finished and the browser hydrates them. The tree is the one main.tsx hydrates; every page
// chunk is awaited (prerender waits for Suspense), and the session is "not known yet", as it is
// in the browser's first render.
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app';

export { fullTitle, PAGE_TITLES } from './page-titles';

export async function renderPage(url: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StaticRouter location={url}>
      <App />
    </StaticRouter>,
  );
  let html = '';
  for await (const chunk of prelude) html += chunk;
  return html;
}
