// The talk's own pprof tables (data/go/talk-pprof.json) and what the Go stage pages need
// to show them beside our stored profiles (src/core/profile/go-profiles.ts).

import TALK_PPROF from '../../../data/go/talk-pprof.json';

/** One row of a pprof `top` table as the talk's slide printed it: every figure a string, as printed. */
export interface TalkPprofRow {
  flat: string;
  flatPercent: string;
  sumPercent: string;
  cum: string;
  cumPercent: string;
  name: string;
}

export interface TalkPprofTable {
  /** The slide's title: "pprof", "Back to pprof", "Allocations and copies". */
  slide: string;
  /** The Go stage whose code the talk profiled there, by id (the talk's step names that code): "03-arrays". */
  stage: string;
  /** What the talk typed at pprof's prompt: "top5", "top10". */
  command: string;
  /** pprof's summary lines above the table, as printed. */
  summary: string[];
  /** What a reader should know about how the slide printed it, in our words; null when nothing. */
  note: string | null;
  rows: TalkPprofRow[];
}

export const TALK_PPROF_TABLES: TalkPprofTable[] = TALK_PPROF.tables;

/** The talk's pprof table for a Go stage (by id), where the talk profiled that stage's code. */
export const talkPprofFor = (id: string): TalkPprofTable | undefined => TALK_PPROF_TABLES.find((t) => t.stage === id);

/** pprof's own way of printing bytes: "4065.84kB", "96B", "1.50MB" (powers of 1024, as pprof's "kB"). */
export function pprofBytes(bytes: number): string {
  if (bytes === 0) return '0';
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value}B` : `${+value.toFixed(2)}${units[unit]}`;
}
