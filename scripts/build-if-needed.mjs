// Builds the web app when dist/web is missing or older than any of its sources.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const sources = ['src/web', 'src/common', 'config', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
const stamp = 'dist/web/.build-stamp';

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built && Math.max(...sources.map(newest)) <= built) process.exit(0);
console.log('Building the web app...');
execSync('node scripts/build.mjs', { stdio: 'inherit' });
