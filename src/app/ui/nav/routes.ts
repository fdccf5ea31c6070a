// The app's pages and their addresses. Routing lives in the URL hash ("#/stage/4") so
// every page is a link a teacher can paste, and the static build needs no server rules.
// Parsing is a pure function, kept apart from the reactive router so it can be tested
// without a browser.

import { STAGES } from '../../../../steps/index.ts';
import { GO_TRACK } from '../../../../go/index.ts';
import { SHARE_PREFIX } from '../../../core/results/io/links.ts';
import { CODE_PATTERN, classCodeProblem } from '../../../core/class/protocol.ts';

export type Route =
  | { page: 'intro' }
  | { page: 'stage'; index: number; view: 'story' | 'code'; file?: string }
  | { page: 'go'; index: number; view: 'story' | 'code' }
  | { page: 'measure' }
  | { page: 'engines' }
  | { page: 'bench'; step?: number }
  | { page: 'results' }
  | { page: 'share'; payload: string }
  | { page: 'compare' }
  | { page: 'file' }
  | { page: 'teach' }
  | { page: 'class'; code: string | null; view: ClassView }
  | { page: 'playground'; index: number; payload?: string; experiment?: string }
  | { page: 'exercises' }
  | { page: 'exercise'; index: number; solution?: string }
  | { page: 'not-found'; path: string; reason: string };

/** A class's pages: the student's (join and run), the live board, the projector's join screen. */
export type ClassView = 'student' | 'board' | 'join';


/** "share/": where a share link's payload starts (its format is core's, src/core/results/io/links.ts). */
const SHARE_PATH = SHARE_PREFIX.slice('#/'.length);

/** Number of stages in the lesson; routes to a stage outside 0..count-1 do not exist. */
const STAGE_COUNT = STAGES.length;

const SIMPLE_PAGES = { exercises: 'exercises', measure: 'measure', engines: 'engines', bench: 'bench', results: 'results', compare: 'compare', file: 'file', teach: 'teach' } as const;

// A file name inside a stage folder: "compress.ts", "compress4x.wat". No slashes, so a
// link can never point outside the stage.
const FILE_NAME = /^[A-Za-z0-9_.-]+$/;

/** Reads a location hash ("#/stage/4", "#/", "") into a route; never throws. */
export function parseRoute(hash: string, stageCount = STAGE_COUNT): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '');
  const notFound = (reason: string): Route => ({ page: 'not-found', path: '/' + path, reason });

  // The share payload is opaque (the results engineer's encoding): pass it on untouched.
  if (path.startsWith(SHARE_PATH)) {
    const payload = path.slice(SHARE_PATH.length);
    if (payload === '') return notFound('This share link is empty: it carries no results.');
    return { page: 'share', payload };
  }

  // The playground: "#/playground/6", or a shared variant "#/playground/6/share/<payload>"
  // (the payload is checked by src/app/playground/variant-link.ts, not here).
  if (path.startsWith('playground/')) {
    const [number, share, ...rest] = path.slice('playground/'.length).split('/');
    if (!/^\d{1,3}$/.test(number)) return notFound('A playground address needs a stage number, like #/playground/6.');
    const index = Number(number);
    if (index >= stageCount) return notFound(`There is no stage ${index}: the stages are numbered 0 to ${stageCount - 1}.`);
    if (share === undefined || (share === '' && rest.length === 0)) return { page: 'playground', index };
    // "#/playground/7/try/allocate-again" opens a guided experiment (src/app/ui/lesson/experiments.ts).
    if (share === 'try' && rest.length === 1 && /^[a-z0-9-]{1,40}$/.test(rest[0])) return { page: 'playground', index, experiment: rest[0] };
    if (share !== 'share' || rest.length === 0 || rest.join('/') === '') {
      return notFound('A playground address is #/playground/<stage>, or a shared variant #/playground/<stage>/share/<code>.');
    }
    return { page: 'playground', index, payload: rest.join('/') };
  }

  const parts = path.replace(/\/+$/, '').split('/');
  if (parts.length === 1 && parts[0] === '') return { page: 'intro' };
  if (parts[0] === 'class') return parseClassRoute(parts.slice(1), notFound);
  if (parts.length === 1 && parts[0] in SIMPLE_PAGES) {
    return { page: SIMPLE_PAGES[parts[0] as keyof typeof SIMPLE_PAGES] };
  }
  if (parts[0] === 'go') return parseGoRoute(parts.slice(1), notFound);
  if (parts[0] === 'exercise') return parseExerciseRoute(parts.slice(1), stageCount, notFound);
  // "#/bench/step/9": the bench with one step's plan filled in (stage 8 against stage 9).
  if (parts[0] === 'bench') {
    const [, step, number] = parts;
    if (parts.length !== 3 || step !== 'step' || !/^\d{1,3}$/.test(number)) return notFound('A step of the bench is #/bench/step/<stage>, like #/bench/step/9.');
    if (Number(number) >= stageCount) return notFound(`There is no stage ${number}: the stages are numbered 0 to ${stageCount - 1}.`);
    return { page: 'bench', step: Number(number) };
  }
  if (parts[0] !== 'stage') return notFound(`There is no page called "${parts[0]}".`);

  return parseStageRoute(parts.slice(1), stageCount, notFound);
}

/**
 * "#/exercise/2": make stage 2's step yourself, starting from stage 1; or a solution
 * shared by link, "#/exercise/2/solution/<payload>" (the payload is checked by
 * src/app/playground/variant-link.ts, not here).
 */
function parseExerciseRoute(parts: string[], stageCount: number, notFound: (reason: string) => Route): Route {
  const number = parts[0] ?? '';
  const shared = parts.length === 3 && parts[1] === 'solution' && parts[2] !== '';
  if (!(parts.length === 1 || shared) || !/^\d{1,3}$/.test(number)) {
    return notFound('An exercise address is #/exercise/<number>, like #/exercise/2, or a shared solution #/exercise/<number>/solution/<code>.');
  }
  const index = Number(number);
  if (index < 1 || index >= stageCount) return notFound(`There is no exercise ${index}: they are numbered 1 to ${stageCount - 1}.`);
  return shared ? { page: 'exercise', index, solution: parts[2] } : { page: 'exercise', index };
}

/** "#/stage/4", "#/stage/4/code", "#/stage/4/code/compress.ts". */
function parseStageRoute(parts: string[], stageCount: number, notFound: (reason: string) => Route): Route {
  const [number, view, file, ...rest] = parts;
  if (number === undefined || !/^\d{1,3}$/.test(number)) {
    return notFound('A stage address needs a stage number, like #/stage/4.');
  }
  const index = Number(number);
  if (index >= stageCount) {
    return notFound(`There is no stage ${index}: the stages are numbered 0 to ${stageCount - 1}.`);
  }
  if (view === undefined) return { page: 'stage', index, view: 'story' };
  if (view !== 'code' || rest.length > 0) {
    return notFound(`A stage page has a story and a code view; "${parts.slice(1).join('/')}" is neither.`);
  }
  if (file === undefined) return { page: 'stage', index, view: 'code' };
  if (!FILE_NAME.test(file)) return notFound(`"${file}" is not a file name.`);
  return { page: 'stage', index, view: 'code', file };
}

function parseClassRoute(parts: string[], notFound: (reason: string) => Route): Route {
  if (parts.length === 0) return { page: 'class', code: null, view: 'student' };
  // Codes are typed on phones: lower case and spaces or dashes are forgiven.
  const code = parts[0].toUpperCase().replace(/%20|[\s-]/g, '');
  if (!CODE_PATTERN.test(code)) return notFound(classCodeProblem(code));
  if (parts.length === 1) return { page: 'class', code, view: 'student' };
  if (parts.length === 2 && (parts[1] === 'board' || parts[1] === 'join')) return { page: 'class', code, view: parts[1] };
  return notFound(`A class has a student page, a board and a join screen; "${parts.slice(1).join('/')}" is none of them.`);
}

/** The Go track: "#/go" (its first stage), "#/go/3", "#/go/3/code". */
function parseGoRoute(parts: string[], notFound: (reason: string) => Route): Route {
  const [number, view, ...rest] = parts;
  const count = GO_TRACK.length;
  if (number === undefined) return { page: 'go', index: 0, view: 'story' };
  if (!/^\d{1,3}$/.test(number)) return notFound('A Go stage address needs a stage number, like #/go/2.');
  const index = Number(number);
  if (index >= count) return notFound(`There is no Go stage ${index}: they are numbered 0 to ${count - 1}.`);
  if (view === undefined) return { page: 'go', index, view: 'story' };
  if (view !== 'code' || rest.length > 0) {
    return notFound(`A Go stage page has a story and a code view; "${parts.slice(1).join('/')}" is neither.`);
  }
  return { page: 'go', index, view: 'code' };
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
    case 'go':
      return `#/go/${route.index}${route.view === 'code' ? '/code' : ''}`;
    case 'bench':
      return route.step === undefined ? '#/bench' : `#/bench/step/${route.step}`;
    case 'share':
      return `${SHARE_PREFIX}${route.payload}`;
    case 'class':
      if (route.code === null) return '#/class';
      return route.view === 'student' ? `#/class/${route.code}` : `#/class/${route.code}/${route.view}`;
    case 'playground':
      if (route.payload !== undefined) return `#/playground/${route.index}/share/${route.payload}`;
      if (route.experiment !== undefined) return `#/playground/${route.index}/try/${route.experiment}`;
      return `#/playground/${route.index}`;
    case 'exercise':
      return route.solution !== undefined ? `#/exercise/${route.index}/solution/${route.solution}` : `#/exercise/${route.index}`;
    case 'not-found':
      return '#' + route.path;
    default:
      return `#/${route.page}`;
  }
}

export function exerciseHref(index?: number): string {
  return routeHref(index === undefined ? { page: 'exercises' } : { page: 'exercise', index });
}

export function playgroundHref(index: number, experiment?: string): string {
  return routeHref({ page: 'playground', index, experiment });
}

/** The bench with the plan that measures one stage's step (see src/app/ui/run/step-plan.ts). */
export function stepBenchHref(index: number): string {
  return routeHref({ page: 'bench', step: index });
}

export function stageHref(index: number, view: 'story' | 'code' = 'story', file?: string): string {
  return routeHref({ page: 'stage', index, view, file });
}

/** Pages that tell the story in order; the arrow keys and the stepper walk through them. */
export function isStoryRoute(route: Route): boolean {
  return route.page === 'intro' || route.page === 'stage' || route.page === 'measure' || route.page === 'engines';
}

/**
 * The story's reading order is intro, stage 0..N-1, "how we measure"; "every engine" is an
 * appendix after it (its ladder is a results view, too tall for a projector slide), reached
 * from the lesson list, whose "previous" leads back. Stepping keeps the
 * story/code view, and the chosen file when the next stage has a file of that name, so
 * a reader comparing compress.ts stays on compress.ts.
 */
export function stepRoute(route: Route, direction: -1 | 1, stageFiles: string[][] = STAGES.map((s) => s.files)): Route | null {
  // The Go track steps through its own stages only, keeping the view.
  if (route.page === 'go') {
    const index = route.index + direction;
    return index < 0 || index >= GO_TRACK.length ? null : { page: 'go', index, view: route.view };
  }
  const count = stageFiles.length;
  const position =
    route.page === 'intro' ? -1 : route.page === 'stage' ? route.index : route.page === 'measure' || route.page === 'engines' ? count : null;
  if (position === null) return null;
  if (route.page === 'engines') return direction === -1 ? { page: 'measure' } : null;
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
  if (route.page === 'go') return { page: 'go', index: edge === 'first' ? 0 : GO_TRACK.length - 1, view: route.view };
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
    case 'go':
      return `Go stage ${route.index}: ${GO_TRACK[route.index]?.title ?? ''}`;
    case 'measure':
      return 'How we measure';
    case 'engines':
      return 'Every engine';
    case 'bench':
      return route.step === undefined ? 'Benchmark' : `Benchmark: stage ${route.step}'s step`;
    case 'results':
      return 'Results';
    case 'file':
      return 'Hash a file';
    case 'teach':
      return 'Teach';
    case 'compare':
      return 'Compare';
    case 'share':
      return 'Shared results';
    case 'class':
      if (route.code === null) return 'Class';
      return route.view === 'student' ? `Class ${route.code}` : route.view === 'board' ? `Class ${route.code}: board` : `Class ${route.code}: join`;
    case 'playground':
      return `Playground: stage ${route.index}`;
    case 'exercises':
      return 'Exercises';
    case 'exercise':
      return `Exercise ${route.index}: ${STAGES[route.index]?.title ?? ''}`;
    case 'not-found':
      return 'No such page';
  }
}
