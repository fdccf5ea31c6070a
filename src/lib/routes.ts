// The app's pages and their addresses. Routing lives in the URL hash ("#/stage/4") so
// every page is a link a teacher can paste, and the static build needs no server rules.
// Parsing is a pure function, kept apart from the reactive router so it can be tested
// without a browser.

import { STAGES } from '../../steps/index.ts';

export type Route =
  | { page: 'intro' }
  | { page: 'stage'; index: number; view: 'story' | 'code'; file?: string }
  | { page: 'measure' }
  | { page: 'bench' }
  | { page: 'results' }
  | { page: 'share'; payload: string }
  | { page: 'compare' }
  | { page: 'not-found'; path: string; reason: string };

/** Number of stages in the lesson; routes to a stage outside 0..count-1 do not exist. */
const STAGE_COUNT = STAGES.length;

const SIMPLE_PAGES = { measure: 'measure', bench: 'bench', results: 'results', compare: 'compare' } as const;

// A file name inside a stage folder: "compress.ts", "compress4x.wat". No slashes, so a
// link can never point outside the stage.
const FILE_NAME = /^[A-Za-z0-9_.-]+$/;

/** Reads a location hash ("#/stage/4", "#/", "") into a route; never throws. */
export function parseRoute(hash: string, stageCount = STAGE_COUNT): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '');
  const notFound = (reason: string): Route => ({ page: 'not-found', path: '/' + path, reason });

  // The share payload is opaque (the results engineer's encoding): pass it on untouched.
  if (path.startsWith('share/')) {
    const payload = path.slice('share/'.length);
    if (payload === '') return notFound('This share link is empty: it carries no results.');
    return { page: 'share', payload };
  }

  const parts = path.replace(/\/+$/, '').split('/');
  if (parts.length === 1 && parts[0] === '') return { page: 'intro' };
  if (parts.length === 1 && parts[0] in SIMPLE_PAGES) {
    return { page: SIMPLE_PAGES[parts[0] as keyof typeof SIMPLE_PAGES] };
  }
  if (parts[0] !== 'stage') return notFound(`There is no page called "${parts[0]}".`);

  const [, number, view, file, ...rest] = parts;
  if (number === undefined || !/^\d{1,3}$/.test(number)) {
    return notFound('A stage address needs a stage number, like #/stage/4.');
  }
  const index = Number(number);
  if (index >= stageCount) {
    return notFound(`There is no stage ${index}: the stages are numbered 0 to ${stageCount - 1}.`);
  }
  if (view === undefined) return { page: 'stage', index, view: 'story' };
  if (view !== 'code' || rest.length > 0) {
    return notFound(`A stage page has a story and a code view; "${parts.slice(2).join('/')}" is neither.`);
  }
  if (file === undefined) return { page: 'stage', index, view: 'code' };
  if (!FILE_NAME.test(file)) return notFound(`"${file}" is not a file name.`);
  return { page: 'stage', index, view: 'code', file };
}

/** The hash that leads to `route` (the inverse of parseRoute for every valid route). */
export function routeHref(route: Route): string {
  switch (route.page) {
    case 'intro':
      return '#/';
    case 'stage': {
      const base = `#/stage/${route.index}`;
      if (route.view === 'story') return base;
      return route.file ? `${base}/code/${route.file}` : `${base}/code`;
    }
    case 'share':
      return `#/share/${route.payload}`;
    case 'not-found':
      return '#' + route.path;
    default:
      return `#/${route.page}`;
  }
}

export function stageHref(index: number, view: 'story' | 'code' = 'story', file?: string): string {
  return routeHref({ page: 'stage', index, view, file });
}

/** Pages that tell the story in order; the arrow keys and the stepper walk through them. */
export function isStoryRoute(route: Route): boolean {
  return route.page === 'intro' || route.page === 'stage' || route.page === 'measure';
}

/**
 * The story's reading order is intro, stage 0..N-1, "how we measure". Stepping keeps the
 * story/code view, and the chosen file when the next stage has a file of that name, so
 * a reader comparing compress.ts stays on compress.ts.
 */
export function stepRoute(route: Route, direction: -1 | 1, stageFiles: string[][] = STAGES.map((s) => s.files)): Route | null {
  const count = stageFiles.length;
  const position =
    route.page === 'intro' ? -1 : route.page === 'stage' ? route.index : route.page === 'measure' ? count : null;
  if (position === null) return null;
  const next = position + direction;
  if (next < -1 || next > count) return null;
  if (next === -1) return { page: 'intro' };
  if (next === count) return { page: 'measure' };
  if (route.page !== 'stage') return { page: 'stage', index: next, view: 'story' };
  const keepFile =
    route.file !== undefined && stageFiles[next].some((path) => path.endsWith('/' + route.file));
  return { page: 'stage', index: next, view: route.view, file: keepFile ? route.file : undefined };
}

/** Home and End: the first and the last stage, keeping the current view. */
export function edgeStageRoute(route: Route, edge: 'first' | 'last', count = STAGE_COUNT): Route {
  const index = edge === 'first' ? 0 : count - 1;
  const view = route.page === 'stage' ? route.view : 'story';
  return { page: 'stage', index, view };
}

/** A short label for a route, used by the stepper ("Stage 3: Inline round into compress"). */
export function routeLabel(route: Route): string {
  switch (route.page) {
    case 'intro':
      return 'Introduction';
    case 'stage':
      return `Stage ${route.index}: ${STAGES[route.index]?.title ?? ''}`;
    case 'measure':
      return 'How we measure';
    case 'bench':
      return 'Benchmark';
    case 'results':
      return 'Results';
    case 'compare':
      return 'Compare';
    case 'share':
      return 'Shared results';
    case 'not-found':
      return 'No such page';
  }
}
