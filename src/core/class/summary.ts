// One machine of a class, as the board shows it: who (a nickname), on what (browser,
// engine, OS) and how fast (the median throughput of every contestant at every size).
// The server computes it from each validated results document it stores, so the board
// and its live events carry a few kilobytes per machine instead of every sample; with
// each step's verdict (verdicts.ts), computed from those samples with the bench's statistics.
import { JS_ENGINES, jsEngineOfAgent, type JsEngine } from '../bench/runtimes.ts';
import type { Results } from '../bench/results.ts';
import type { Guesses } from '../predict/guess.ts';
import type { ExerciseRecords } from './exercise.ts';
import { mbPerSec } from '../stats/benchunit.ts';
import { medianSorted } from '../stats/median.ts';
import { machineVerdicts, type MachineVerdicts } from './verdicts.ts';

/** Names a board stored before it spoke of JavaScript engines, as they read now. */
const OLD_ENGINE_NAMES: Record<string, JsEngine> = { Blink: 'V8', Node: 'V8', Gecko: 'SpiderMonkey', WebKit: 'JavaScriptCore', other: 'unknown engine' };

/** A summary as stored, its engine named as the lab names engines now. */
export function readStoredSummary(json: string): EntrySummary {
  const entry = JSON.parse(json) as EntrySummary;
  const engine: string = entry.engine;
  return (JS_ENGINES as readonly string[]).includes(engine) ? entry : { ...entry, engine: OLD_ENGINE_NAMES[engine] ?? 'unknown engine' };
}

export interface EntrySummary {
  /** The student's id in this class (random, issued by the server on joining). */
  id: string;
  nickname: string;
  /** "Chromium 156.0.8078.73", "Firefox 140.0". */
  browser: string;
  engine: JsEngine;
  os: string;
  cores: number;
  /** Whether the run is over; a run in progress posts its results so far. */
  done: boolean;
  /**
   * The student cancelled the run (its document still holds cancelled runs): the figures
   * are what it measured until then. Only ever true with `done`.
   */
  stopped: boolean;
  /** Hidden by the teacher: not on the public board, still in the export. */
  hidden: boolean;
  /** Joined and has posted nothing yet: on the board from its join, so the teacher can remove it. */
  silent: boolean;
  /**
   * Whether its page was cross-origin isolated (shared memory for stage 11's threads, the
   * fine timer); null while silent, and for summaries stored before the board showed it.
   */
  isolated: boolean | null;
  /** The timer's smallest step on that page, ns (0 while silent). */
  timerNs: number;
  /** ms since the epoch of the last post (of the join, while silent). */
  updatedAt: number;
  /** Median MB/s by contestant id, then by size in bytes; only cells with samples. */
  throughput: Record<string, Record<string, number>>;
  /**
   * Each step's verdict (speedup, interval, Holm-adjusted p) from this machine's samples.
   * Absent while silent, and from summaries stored before the board kept verdicts: those
   * carry medians only.
   */
  verdicts?: MachineVerdicts;
  /**
   * The student's guesses by stage, each a choice's ratio (src/core/predict/guess.ts); kept
   * apart from the results, so a machine may guess before it posts (and stay silent).
   * Absent from summaries made before guesses were taken.
   */
  guesses?: Guesses;
  /**
   * Its attempts at the exercises a class plan named, by exercise number (figures only,
   * src/core/class/exercise.ts); kept apart from the results, as the guesses are. Absent
   * until its first attempt.
   */
  exercises?: ExerciseRecords;
}

/** Where a machine's run is: nothing posted yet, still posting, measured to the end, or cancelled by its student. */
export type RunState = 'silent' | 'running' | 'finished' | 'stopped';

export function runState(entry: EntrySummary): RunState {
  if (entry.silent) return 'silent';
  return !entry.done ? 'running' : entry.stopped ? 'stopped' : 'finished';
}

/** A machine that has joined and posted nothing: its row on the board until its first post. */
export function silentEntry(student: { id: string; nickname: string; hidden: boolean; joinedAt: number }): EntrySummary {
  const { joinedAt, ...who } = student;
  return { ...who, browser: '', engine: 'unknown engine', os: '', cores: 0, done: false, stopped: false, silent: true, isolated: null, timerNs: 0, updatedAt: joinedAt, throughput: {} };
}

/** Median MB/s of every contestant and size that has samples (ok, time-boxed, or cut short). */
export function medianThroughput(results: Results): Record<string, Record<string, number>> {
  // No prototype: a contestant id may legally be "constructor", which must not reach Object's.
  const table: Record<string, Record<string, number>> = Object.create(null);
  for (const run of results.runs) {
    if (run.status === 'failed' || run.status === 'unavailable' || run.nsPerOp.length === 0) continue;
    const ns = medianSorted([...run.nsPerOp].sort((a, b) => a - b));
    if (!Object.hasOwn(table, run.contestant)) table[run.contestant] = Object.create(null);
    table[run.contestant][String(run.size)] = mbPerSec(run.size, ns);
  }
  return table;
}

export function summarize(
  results: Results,
  student: { id: string; nickname: string; done: boolean; hidden: boolean; updatedAt: number },
): EntrySummary {
  const { env } = results;
  return {
    ...student,
    stopped: student.done && results.runs.some((run) => run.status === 'cancelled'),
    silent: false,
    isolated: env.crossOriginIsolated,
    timerNs: env.timerResolutionNs,
    browser: env.runtimeVersion,
    engine: jsEngineOfAgent(env.runtime, env.userAgent),
    os: env.os,
    cores: env.cores,
    throughput: medianThroughput(results),
    verdicts: machineVerdicts(results),
  };
}
