// The shape of a stage's story, on its own so the readers of the stories' Markdown
// (src/app/story/narrative.ts, src/app/go/stages.ts) and the pages that show them import
// it without importing each other.
import type { V8Why } from '../../../core/evidence/v8-why.ts';

export interface Part {
  lead: string;
  /** The details after the lead; a blank line ("\n\n") starts a new paragraph. */
  more: string;
}

/** A Go optimization idea that is the same lesson in another language. */
export interface SideNote {
  title: string;
  text: string;
  /** The Go track stage that shows this lesson happening, by index. */
  goStage?: number;
}

export interface ArticleFigure {
  /** The headline figure, e.g. "1.6×" or "~2000× slower". */
  headline: string;
  /** What the headline is relative to. */
  relativeTo: string;
  /** Where the stage stood against the official Rust code compiled to WebAssembly. */
  vsWasm?: string;
}

export interface Beyond extends Part {
  /** The extra parts one by one, each with what it measured, shown as a list. */
  steps?: string[];
}

/**
 * A stage past the end of the article: it has no figure there, so we say where to look
 * for its gain, and give native code's figure for scale, labelled as native code's.
 */
export interface PastTheArticle {
  /** Where the stage's gain is, in words: the card's large line, never a figure of another program. */
  headline: string;
  /** What the headline means. */
  relativeTo: string;
  /** Native Rust's figure for scale ("2.1 GB/s") and where it was measured; shown small, named as native Rust's. */
  native: { figure: string; where: string };
  /** What the official Rust crate does for the same problem. */
  rust: string;
}

/**
 * What a stage's CPU profile should be read for: the "Where the time goes" section marks,
 * adds up and explains with these. Names are as the profilers give them.
 */
export interface ProfileFacts {
  /** The functions this stage's change writes, rewrites or removes: marked in its profile and the one before. */
  changes: string[];
  /** The change is in WebAssembly too: every WebAssembly function is marked (profilers name them by index). */
  changesWasm?: boolean;
  /** The functions (or engine rows, such as `(garbage collector)`) whose share, before and now, tells what the change did. */
  watch: string[];
  /** The input size at which the change shows, where it is not the 64 KiB the section opens on. */
  size?: number;
  /** Where inlining moves time from one function into another (V8's, or the stage's own by hand), and how to read that. */
  inlining?: { callee: string; caller: string; says: Part };
  /** One more thing to read in this stage's profile. */
  note?: string;
}

/** A question for the room, from the stage's own evidence, with its answer folded away. */
export interface AskTheClass {
  question: string;
  /** Paragraphs, a blank line ("\n\n") between them. */
  answer: string;
}

export interface StageStory {
  change: Part;
  why: Part;
  cost: Part;
  /** The article's figure; absent exactly for the stages past the end of the article, which have `pastArticle`. */
  article?: ArticleFigure;
  pastArticle?: PastTheArticle;
  /** A warning the reader must not miss (stage 0's quadratic time, stage 9's old bug). */
  caution?: Part;
  /** The warning needs the story first (its words are the story's): shown after the parts, not before. */
  cautionAfter?: boolean;
  /** Where the stage does more than the article's step, and what each extra part measured. */
  beyond?: Beyond;
  /** A version built and measured first and not kept, and why it lost. */
  tried?: Part;
  go?: SideNote[];
  /** Measurements of the original code on another machine, where the article's differ. */
  elsewhere?: string;
  profile: ProfileFacts;
  ask: AskTheClass;
  /** Things to try by hand, for a stage the playground cannot open. */
  tryIt?: string[];
  /** The row of V8's table that backs the "why", and its sentence (`{then}` and `{now}` filled by the page). */
  v8Why: V8Why;
}
