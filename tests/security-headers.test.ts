// The security headers are written twice: in vite.config.ts (dev and preview servers)
// and in public/_headers (static hosts). They must be the same, and the policy must
// keep the properties the app relies on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import viteConfig, { SANDBOX_PATH, sandboxHeaders, securityHeaders } from '../vite.config.ts';
import { ISOLATION_MARKER, withIsolationHeaders } from '../src/core/site/service-worker.ts';

/** Directives a <meta http-equiv> policy ignores: only a header can carry them. */
const HEADER_ONLY = ['frame-ancestors', 'report-uri', 'sandbox'];

/** The pages the build ships (vite.config.ts build inputs), as repo-relative paths. */
function builtPages(): string[] {
  const input = viteConfig.build?.rollupOptions?.input;
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new Error('vite.config.ts: build inputs are not named');
  return Object.values(input);
}

/** The content of a page's CSP meta tag, or undefined. */
function metaPolicy(html: string): string | undefined {
  return /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(html)?.[1];
}

/**
 * The headers a path gets from a Netlify/Cloudflare-style _headers file: the `/*` rule,
 * then the rule for the path itself, where "! Name" drops a header set before.
 */
function parseHeadersFile(text: string, path = '/'): Record<string, string> {
  const headers: Record<string, string> = {};
  let applies = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      applies = line.trim() === '/*' || line.trim() === path;
      continue;
    }
    if (!applies) continue;
    if (line.trim().startsWith('! ')) {
      delete headers[line.trim().slice(2).trim()];
      continue;
    }
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

  it('public/_headers gives the playground sandbox exactly its headers of vite.config.ts', () => {
    const file = parseHeadersFile(readFileSync(new URL('../public/_headers', import.meta.url), 'utf8'), SANDBOX_PATH);
    expect(file).toEqual(sandboxHeaders);
  });

  it("keep the sandbox page's policy to an opaque origin, its inline script, blob: code and WebAssembly, with no connection at all", () => {
    const csp = directives(sandboxHeaders['Content-Security-Policy']);
    // Scripts and nothing else: no allow-same-origin, forms, pop-ups or navigation of the app.
    expect(csp.get('sandbox')).toEqual(['allow-scripts']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    const scripts = csp.get('script-src')!;
    expect(scripts.filter((s) => !s.startsWith("'sha256-"))).toEqual(['blob:', "'wasm-unsafe-eval'"]);
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(1);
    expect(csp.get('worker-src')).toEqual(['blob:']);
    expect(csp.get('connect-src')).toEqual(["'none'"]);
    expect(sandboxHeaders['Content-Security-Policy']).not.toMatch(/'unsafe-eval'|'unsafe-inline'|https?:|\*/);
    // Everything else as for the app: embeddable in the cross-origin isolated page, never sniffed.
    expect({ ...sandboxHeaders, 'Content-Security-Policy': '' }).toEqual({ ...securityHeaders, 'Content-Security-Policy': '' });
  });

  it('make the page cross-origin isolated and lock down sniffing and referrers', () => {
    expect(securityHeaders['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(securityHeaders['Cross-Origin-Embedder-Policy']).toBe('require-corp');
    expect(securityHeaders['Cross-Origin-Resource-Policy']).toBe('same-origin');
    expect(securityHeaders['X-Content-Type-Options']).toBe('nosniff');
    expect(securityHeaders['Referrer-Policy']).toBe('no-referrer');
  });

  it('let the page start the JS Self-Profiling API, which Chromium refuses without this policy', () => {
    expect(securityHeaders['Document-Policy']).toBe('js-profiling');
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

describe('the policy in every page', () => {
  it('is the header, less what only a header can carry, as a meta tag before any script', () => {
    const expected = new Map([...directives(securityHeaders['Content-Security-Policy'])].filter(([name]) => !HEADER_ONLY.includes(name)));
    const pages = builtPages();
    expect(pages).toContain('index.html');
    for (const page of pages) {
      const html = readFileSync(new URL(`../${page}`, import.meta.url), 'utf8');
      const policy = metaPolicy(html);
      expect(policy, page).toBeDefined();
      expect(directives(policy!), page).toEqual(expected);
      expect(html.indexOf('http-equiv="Content-Security-Policy"'), page).toBeLessThan(html.search(/<script|<link/));
    }
  });
});

describe("the playground sandbox's policy in its page and the README", () => {
  const policy = sandboxHeaders['Content-Security-Policy'];

  it('is in the sandbox page as a meta tag before its script, less what only a header can carry', () => {
    const html = readFileSync(new URL('../src/app/playground/sandbox-page.html', import.meta.url), 'utf8');
    const expected = new Map([...directives(policy)].filter(([name]) => !HEADER_ONLY.includes(name)));
    expect(directives(metaPolicy(html)!)).toEqual(expected);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));
  });

  it('is given to nginx and Caddy for that one path', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`location = ${SANDBOX_PATH} { add_header Content-Security-Policy "${policy}" always;`);
    expect(readme).toContain(`@sandbox path ${SANDBOX_PATH}\n  header @sandbox Content-Security-Policy "${policy}"\n`);
  });
});

describe('the README deploy configs', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

  it('give nginx and Caddy exactly the headers of vite.config.ts', () => {
    for (const [name, value] of Object.entries(securityHeaders)) {
      expect(readme, `nginx ${name}`).toContain(`add_header ${name} "${value}" always;`);
      expect(readme, `Caddy ${name}`).toContain(`header ${name} "${value}"\n`);
    }
  });
});

/** What the app's service worker (workers/sw.ts) answers for a same-origin response from the host with `upstream` headers. */
async function throughServiceWorker(upstream: Record<string, string>, path = '/', body = 'page', status = 200): Promise<Headers> {
  // What the host sent: a plain same-origin ("basic") response.
  const fetched = new Response(body, { status, headers: upstream });
  Object.defineProperty(fetched, 'type', { value: 'basic' });
  return (await withIsolationHeaders(fetched, path)).headers;
}

describe("the isolation service worker for hosts that send no headers", () => {
  it('adds every security header, the policy and the profiling policy among them, as vite.config.ts has them', async () => {
    const headers = await throughServiceWorker({ 'Content-Type': 'text/html' });
    for (const [name, value] of Object.entries(securityHeaders)) expect(headers.get(name), name).toBe(value);
    expect(headers.get('Content-Type')).toBe('text/html');
    expect(headers.get(ISOLATION_MARKER)).toBe('service-worker');
  });

  it("gives the playground sandbox its own headers, sandbox and all, as vite.config.ts has them, and the app's none", async () => {
    // The stored copy of the build's sandbox page, offline or on a host that sends no headers.
    const page = readFileSync(new URL('../src/app/playground/sandbox-page.html', import.meta.url), 'utf8');
    const headers = await throughServiceWorker({ 'Content-Type': 'text/html' }, SANDBOX_PATH, page);
    for (const [name, value] of Object.entries(sandboxHeaders)) expect(headers.get(name), name).toBe(value);
    expect(directives(headers.get('Content-Security-Policy')!).get('sandbox')).toEqual(['allow-scripts']);
    // The same from a folder of the host.
    expect((await throughServiceWorker({}, `/lab${SANDBOX_PATH}`, page)).get('Content-Security-Policy')).toBe(sandboxHeaders['Content-Security-Policy']);
    // An error page in its place is not the sandbox page: it gets the app's policy.
    expect((await throughServiceWorker({}, SANDBOX_PATH, 'Not Found', 404)).get('Content-Security-Policy')).toBe(securityHeaders['Content-Security-Policy']);
  });

  it('leaves a response alone when the host isolates it already', async () => {
    const headers = await throughServiceWorker({ 'Cross-Origin-Embedder-Policy': 'require-corp' });
    expect(headers.get('Document-Policy')).toBeNull();
    expect(headers.get('X-Blake3-Lab-Isolation')).toBeNull();
  });
});
