// npm run size: builds the app into a temporary folder and prints what a first visit
// downloads before its first paint (the entry script and the modules it preloads, gzipped)
// against the budget, then the lazily loaded chunks, largest first: a stage page's
// measurements, profiles and V8 evidence among them, which load after its first paint.
// Exits 1 when the budget is exceeded.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** Initial JavaScript a first visit may download, gzipped: 80 kB (Monaco and Chart.js load later). */
const INITIAL_JS_BUDGET = 80 * 1000;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const outDir = mkdtempSync(join(tmpdir(), 'blake3-lab-size-'));
try {
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  // The entry script plus every module Vite tells the browser to preload with it.
  const initial = [
    ...html.matchAll(/<script type="module"[^>]*src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
  ].map((match) => match[1]);
  // Without this, a changed base path would read as a first visit of 0 KiB, within budget.
  if (initial.length === 0) throw new Error('size: found no module script in the built index.html');
  const gzipped = (file: string) => gzipSync(readFileSync(join(outDir, file))).length;

  let initialTotal = 0;
  console.log('First visit (index.html):');
  for (const file of initial) {
    const size = gzipped(file);
    initialTotal += size;
    console.log(`  ${file.padEnd(48)} ${kib(size).padStart(10)} gzipped`);
  }
  const verdict = initialTotal <= INITIAL_JS_BUDGET ? 'within' : 'OVER';
  console.log(`  initial JavaScript: ${kib(initialTotal)} gzipped, ${verdict} the ${kib(INITIAL_JS_BUDGET)} budget\n`);

  const lazy = readdirSync(join(outDir, 'assets'))
    .map((name) => `assets/${name}`)
    .filter((file) => file.endsWith('.js') && !initial.includes(file))
    .map((file) => ({ file, size: gzipped(file) }))
    .sort((a, b) => b.size - a.size);
  console.log('Loaded when first needed (code view, charts, pages, workers), largest first:');
  for (const { file, size } of lazy.slice(0, 12)) {
    console.log(`  ${file.padEnd(48)} ${kib(size).padStart(10)} gzipped`);
  }
  const lazyTotal = lazy.reduce((sum, chunk) => sum + chunk.size, 0);
  console.log(`  ... ${lazy.length} chunks, ${kib(lazyTotal)} gzipped in all`);
  process.exitCode = initialTotal <= INITIAL_JS_BUDGET ? 0 : 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
