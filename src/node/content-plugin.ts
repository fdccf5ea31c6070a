// Vite reads the lesson's Markdown (content/**/*.md) as data when it builds the app: each
// file becomes a module whose default export is its parsed front matter and text
// (src/core/content/markdown.ts). A file that does not parse fails the build with its
// line. The unit tests load the same plugin, so they read what the pages show.
import { relative } from 'node:path';
import type { Plugin } from 'vite';
import { parseMarkdown } from '../core/content/markdown.ts';

export function markdownContent(): Plugin {
  return {
    name: 'blake3-lab-markdown-content',
    transform(code, id) {
      const path = id.split('?')[0];
      if (!path.endsWith('.md')) return null;
      const doc = parseMarkdown(code, relative(process.cwd(), path));
      return { code: `export default ${JSON.stringify(doc)};`, map: null };
    },
  };
}
