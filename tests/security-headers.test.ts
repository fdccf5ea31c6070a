// The security headers are written twice: in vite.config.ts (dev and preview servers)
// and in public/_headers (static hosts). They must be the same, and the policy must
// keep the properties the app relies on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../vite.config.ts';

/** The headers the `/*` rule of a Netlify/Cloudflare-style _headers file sets. */
function parseHeadersFile(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let inAllPaths = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      inAllPaths = line.trim() === '/*';
      continue;
    }
    if (!inAllPaths) continue;
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`not a header line: ${line}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

describe('security headers', () => {
  it('public/_headers sets exactly the headers of vite.config.ts', () => {
    const file = parseHeadersFile(readFileSync(new URL('../public/_headers', import.meta.url), 'utf8'));
    expect(file).toEqual(securityHeaders);
  });

  it('make the page cross-origin isolated and lock down sniffing and referrers', () => {
    expect(securityHeaders['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(securityHeaders['Cross-Origin-Embedder-Policy']).toBe('require-corp');
    expect(securityHeaders['Cross-Origin-Resource-Policy']).toBe('same-origin');
    expect(securityHeaders['X-Content-Type-Options']).toBe('nosniff');
    expect(securityHeaders['Referrer-Policy']).toBe('no-referrer');
  });

  it('allow scripts only from the origin, WebAssembly compilation but no eval or inline script', () => {
    const csp = directives(securityHeaders['Content-Security-Policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    for (const name of ['object-src', 'base-uri', 'form-action', 'frame-ancestors']) {
      expect(csp.get(name), name).toEqual(["'none'"]);
    }
    const all = securityHeaders['Content-Security-Policy'];
    expect(all).not.toContain("'unsafe-eval'");
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    // Nothing may be loaded from another origin: no host or scheme sources besides data:/blob: images.
    for (const [name, sources] of csp) {
      const foreign = sources.filter((s) => !s.startsWith("'") && !(name === 'img-src' && (s === 'data:' || s === 'blob:')));
      expect(foreign, name).toEqual([]);
    }
  });
});
