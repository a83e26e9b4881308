// `npm run build`: the web app, ready to serve from dist/web.
//  1. the browser bundle (Vite), with a manifest of its chunks;
//  2. the public pages prerendered to HTML with the same React tree (src/web/prerender.tsx), each
//     with its <title>, its page chunk preloaded, the fonts above the fold preloaded and, on the
//     home page, the hero still preloaded as the largest paint;
//  3. a brotli and a gzip copy of every text file, which the server sends to browsers that take them.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import sharp from 'sharp';

const WEB = 'dist/web';
const SSR = 'dist/prerender';
/** The prerendered pages and the module that renders each. */
export const PRERENDERED = {
  '/': 'src/web/routes/home.tsx',
  '/about': 'src/web/routes/about.tsx',
  '/contact': 'src/web/routes/contact.tsx',
  '/terms': 'src/web/routes/terms.tsx',
  '/auth': 'src/web/routes/auth.tsx',
};

const run = (cmd) => execSync(cmd, { stdio: 'inherit' });

run('npx vite build');
run(`npx vite build --ssr src/web/prerender.tsx --outDir ${SSR} --emptyOutDir`);

// WebP copies of the pictures above the fold: a third of the JPEG's bytes (the JPEGs stay for
// browsers without WebP, and for a provider's own hero stills in HERO_DIR).
for (const still of ['hero/desktop', 'hero/mobile']) {
  await sharp(path.join(WEB, `${still}.jpg`)).webp({ quality: 75 }).toFile(path.join(WEB, `${still}.webp`));
}
for (const width of [600, 900]) {
  await sharp(path.join(WEB, 'about/cover.jpg')).resize({ width }).webp({ quality: 78 }).toFile(path.join(WEB, `about/cover-${width}.webp`));
}

// The manifest names source files: it stays out of what the server serves.
const manifest = JSON.parse(fs.readFileSync(path.join(WEB, '.vite/manifest.json'), 'utf8'));
fs.rmSync(path.join(WEB, '.vite'), { recursive: true, force: true });

/** The files a module needs at once: its chunk and its static imports, recursively. */
function chunkFiles(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(key)) return [];
  seen.add(key);
  return [entry.file, ...(entry.imports ?? []).flatMap((k) => chunkFiles(k, seen))];
}

/** The picture each page paints largest, preloaded so it does not wait for the scripts. */
const LARGEST_PAINT = {
  '/': [
    '<link rel="preload" as="image" type="image/webp" href="/hero/mobile.webp" media="(max-width: 767px)" fetchpriority="high">',
    '<link rel="preload" as="image" type="image/webp" href="/hero/desktop.webp" media="(min-width: 768px)" fetchpriority="high">',
  ],
  '/about': [
    '<link rel="preload" as="image" type="image/webp" imagesrcset="/about/cover-600.webp 600w, /about/cover-900.webp 900w" imagesizes="(min-width: 768px) 448px, calc(100vw - 2rem)" fetchpriority="high">',
  ],
};

const template = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
const entryFiles = new Set(chunkFiles('index.html'));
const fonts = fs
  .readdirSync(path.join(WEB, 'assets'))
  .filter((f) => /^(inter-latin-wght-normal|anton-latin-400-normal)-.*\.woff2$/.test(f));

const { renderPage, PAGE_TITLES, fullTitle } = await import(pathToFileURL(path.resolve(SSR, 'prerender.js')).href);
fs.mkdirSync(path.join(WEB, 'pages'), { recursive: true });
for (const [pathname, module] of Object.entries(PRERENDERED)) {
  // React puts resource hints (an image it saw) before the markup: they belong in the head.
  const rendered = await renderPage(pathname);
  const hints = /^(?:<link [^>]*\/>)*/.exec(rendered)[0];
  const body = rendered.slice(hints.length);
  const preloads = [
    ...(hints ? hints.match(/<link [^>]*\/>/g) : []),
    ...fonts.map((f) => `<link rel="preload" href="/assets/${f}" as="font" type="font/woff2" crossorigin>`),
    ...chunkFiles(module)
      .filter((f) => !entryFiles.has(f))
      .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ...(LARGEST_PAINT[pathname] ?? []),
  ];
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${fullTitle(PAGE_TITLES[pathname])}</title>`)
    .replace('</head>', `  ${preloads.join('\n    ')}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${body}</div>`);
  const file = path.join(WEB, 'pages', pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, html);
}
fs.rmSync(SSR, { recursive: true, force: true });

// Precompressed copies: no compression work per request, and the smallest files possible.
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;
function compressAll(dir) {
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isDirectory()) compressAll(file);
    else if (COMPRESSIBLE.test(name) && fs.statSync(file).size >= 1024) {
      const data = fs.readFileSync(file);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
    }
  }
}
compressAll(WEB);
fs.writeFileSync(path.join(WEB, '.build-stamp'), new Date().toISOString());
