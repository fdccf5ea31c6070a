// The Teach page's words: content/teach.md, read at build time like the stages' Markdown.
// What to prepare, then two plans, each a list of steps whose headings start with their
// time ("0:05–0:15 Stage 1"). Read here into plain data and checked: the steps follow
// each other without a gap or overlap and the last ends at the plan's length, each item
// says what it is (Show, Ask, Measure, Board), and every link names a slide or a page
// the app has (a stage by its id, whose number comes from the registry), so a plan that
// does not add up fails the tests, not a class.
import type { MarkdownDoc, Section } from '../../core/content/markdown.ts';
import { ContentReader, readersByName } from '../ui/lesson/content.ts';
import { proseSegments } from '../ui/lesson/inline.ts';
import { routeHref, type Route } from '../ui/nav/routes.ts';
import { partHref } from '../ui/present/slide-address.ts';
import { STAGES } from '../../../steps/index.ts';
import { GO_TRACK } from '../../../go/index.ts';

export const PLAN_MINUTES = [45, 90] as const;
export const STEP_KINDS = ['Show', 'Ask', 'Measure', 'Board'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export interface PlanItem {
  kind: StepKind;
  text: string;
}
export interface PlanStep {
  /** Minutes from the start of the class. */
  from: number;
  to: number;
  /** "0:05–0:15", as written. */
  time: string;
  title: string;
  items: PlanItem[];
}
export interface Plan {
  minutes: number;
  heading: string;
  summary: string;
  steps: PlanStep[];
}
export interface TeachContent {
  title: string;
  lede: string;
  prepare: { heading: string; items: string[] };
  plans: Plan[];
}

/** A slide opened in presenter mode: `/?present#/stage/5`, a full load, so presenter mode is on from the start. */
const slideHref = (route: Route) => `/?present${routeHref(route)}`;

/** The introduction's parts a plan may name, `intro:tree`: IntroPage.svelte's `data-slide-name`s. */
export const INTRO_PARTS = ['title', 'tree', 'map'] as const;

/** The names a plan may link to: every slide of the story and the Go track (a stage by its id, `stage:05-no-copies`, `go:04-memclr`), and the pages a class uses. */
export const TEACH_LINKS: Record<string, string> = {
  intro: slideHref({ page: 'intro' }),
  ...Object.fromEntries(INTRO_PARTS.map((part) => [`intro:${part}`, partHref(routeHref({ page: 'intro' }), part)])),
  measure: slideHref({ page: 'measure' }),
  engines: slideHref({ page: 'engines' }),
  ...Object.fromEntries(STAGES.map((s) => [`stage:${s.id}`, slideHref({ page: 'stage', index: s.index, view: 'story' })])),
  ...Object.fromEntries(GO_TRACK.map((s) => [`go:${s.id}`, slideHref({ page: 'go', index: s.index, view: 'story' })])),
  class: routeHref({ page: 'class', code: null, view: 'student' }),
  bench: routeHref({ page: 'bench' }),
  results: routeHref({ page: 'results' }),
  compare: routeHref({ page: 'compare' }),
};

const clock = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** A stage's number as the registry has it, for a link's words to agree with: "stage 5", "Go stage 4". */
function stageNumber(to: string): number | undefined {
  const [track, id] = to.split(':');
  return (track === 'stage' ? STAGES : track === 'go' ? GO_TRACK : []).find((s) => s.id === id)?.index;
}

function checkLinks(text: string, where: string): void {
  for (const segment of proseSegments(text)) {
    if (segment.kind !== 'link') continue;
    if (!(segment.to in TEACH_LINKS)) throw new Error(`${where}: [${segment.text}](${segment.to}) links to no slide or page the Teach page knows`);
    // The words may name the stage's number; a stage moved in the registry then fails here, not in class.
    const said = /\bstage (\d+)\b/i.exec(segment.text)?.[1];
    const number = stageNumber(segment.to);
    if (said !== undefined && number !== undefined && Number(said) !== number) throw new Error(`${where}: [${segment.text}](${segment.to}) says stage ${said}, but that stage is number ${number}`);
  }
}

function stepOf(section: Section, where: string): PlanStep {
  const time = /^(\d+):(\d\d)–(\d+):(\d\d) (\S.*)$/.exec(section.heading);
  if (!time) throw new Error(`${where}: a step's heading starts with its time, "0:05–0:15 Title"`);
  const [, h1, m1, h2, m2, title] = time;
  if (section.paragraphs.length || !section.items.length) throw new Error(`${where}: a step is a list of "- " items`);
  const items = section.items.map((text) => {
    const kind = STEP_KINDS.find((k) => text.startsWith(`${k}: `));
    if (!kind) throw new Error(`${where}: each item starts with ${STEP_KINDS.map((k) => `"${k}:"`).join(', ')}, not "${text.slice(0, 20)}…"`);
    const rest = text.slice(kind.length + 2);
    checkLinks(rest, where);
    return { kind, text: rest };
  });
  const from = Number(h1) * 60 + Number(m1);
  const to = Number(h2) * 60 + Number(m2);
  return { from, to, time: `${clock(from)}–${clock(to)}`, title, items };
}

/** Reads the Teach page's file; throws, naming the place, on a plan that does not add up. */
export function readTeach(doc: MarkdownDoc, file: string): TeachContent {
  const reader = new ContentReader(doc, file);
  const entries = Object.entries(doc.sections);
  const prepare = doc.sections.prepare;
  if (!prepare?.items.length) throw new Error(`${file} has no "# … {#prepare}" list: what to prepare before the class`);
  prepare.items.forEach((text) => checkLinks(text, `${file}, "${prepare.heading}"`));
  const plans = PLAN_MINUTES.map((minutes): Plan => {
    const name = `plan-${minutes}`;
    const section = doc.sections[name];
    if (!section || section.level !== 1 || section.paragraphs.length !== 1) throw new Error(`${file} needs "# … {#${name}}" with one paragraph`);
    const steps = entries.filter(([key]) => key.startsWith(`${name}-`)).map(([key, step]) => stepOf(step, `${file}, {#${key}}`));
    let at = 0;
    for (const step of steps) {
      if (step.from !== at || step.to <= step.from) throw new Error(`${file}, ${section.heading}: "${step.time} ${step.title}" should start at ${clock(at)} and end after it`);
      at = step.to;
    }
    if (at !== minutes) throw new Error(`${file}, ${section.heading}: the steps end at ${clock(at)}, not at ${clock(minutes)}`);
    return { minutes, heading: section.heading, summary: section.paragraphs[0], steps };
  });
  const known = new Set(['prepare', ...PLAN_MINUTES.flatMap((m) => [`plan-${m}`, ...entries.map(([key]) => key).filter((key) => key.startsWith(`plan-${m}-`))])]);
  const unknown = entries.filter(([key]) => !known.has(key));
  if (unknown.length) throw new Error(`${file}: the Teach page does not show ${unknown.map(([, s]) => `"${s.heading}"`).join(', ')}`);
  return { title: reader.string('title'), lede: reader.string('lede'), prepare: { heading: prepare.heading, items: prepare.items }, plans };
}

const file = readersByName(import.meta.glob<MarkdownDoc>('/content/teach.md', { eager: true, import: 'default' })).get('teach');
if (!file) throw new Error('the Teach page reads its plans from content/teach.md, which is missing');

export const TEACH = readTeach(file.doc, file.file);
