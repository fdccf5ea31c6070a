// "Builds if needed": the app is rebuilt when the last build is missing or older than any
// of its sources, so a teacher who pulled a new version never serves a stale one, and a
// restart with nothing changed starts at once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HTML_PAGES } from '../src/core/site/html-pages.ts';

/** What the build reads: the pages, the app, the stages, the workers, static files, the lesson's text, the Go track and the data, and the config. */
const SOURCES = [...Object.values(HTML_PAGES), 'vite.config.ts', 'package-lock.json', 'src', 'steps', 'workers', 'public', 'content', 'go', 'data'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

/** Builds `root`'s app into root/dist when it is missing or stale; returns the dist folder. */
export async function buildIfNeeded(root: string): Promise<string> {
  const dist = join(root, 'dist');
  const built = join(dist, 'index.html');
  const sources = Math.max(...SOURCES.map((name) => newestChange(join(root, name))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return dist;
  process.stdout.write('Building the app (once, or after a change)…\n');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
  return dist;
}
