// Shared by the file page's browser tests: a record of every request a page's context
// makes, and what would be wrong with any of them, and an observer of long tasks.
import type { BrowserContext } from 'playwright-core';

/** An init script: every long task of the page's thread goes to window.__longTasks (ms). */
export const LONG_TASK_OBSERVER = `window.__longTasks = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); })
  .observe({ type: 'longtask', buffered: true });`;

export interface SeenRequest {
  url: string;
  method: string;
  bodyBytes: number;
}

/** Every request of the context from now on, the page's and its workers'. */
export function recordRequests(context: BrowserContext): SeenRequest[] {
  const seen: SeenRequest[] = [];
  context.on('request', (request) => seen.push({ url: request.url(), method: request.method(), bodyBytes: request.postDataBuffer()?.length ?? 0 }));
  return seen;
}

/**
 * What is wrong with the requests: anything but a GET of the app's own built assets (the
 * workers' scripts, the stages' chunks) or a blob: URL of the page (a download it made),
 * and any request with a body. Empty when the files stayed on the machine.
 */
export function requestProblems(requests: readonly SeenRequest[], origin: string): string[] {
  return requests
    .filter((r) => {
      if (r.method !== 'GET' || r.bodyBytes > 0) return true;
      if (r.url.startsWith(`blob:${origin}/`)) return false;
      const url = new URL(r.url);
      return url.origin !== origin || !url.pathname.startsWith('/assets/') || url.search !== '';
    })
    .map((r) => `${r.method} ${r.url.slice(0, 120)}${r.bodyBytes ? ` with a ${r.bodyBytes}-byte body` : ''}`);
}
