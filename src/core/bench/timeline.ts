// Where stage 11's time goes: a timeline of its threads during single hashes, the debug
// path behind `npm run bench:cores -- --timeline` (in Node worker threads, or with
// --browser in Chromium's Web Workers). Each thread marks what it does with the clock
// every thread shares (performance.timeOrigin + performance.now(), see
// steps/11-every-core/job.ts): the calling thread when it copies, hashes its own pieces
// and the tail, waits, or redoes a late worker's piece; each worker when it took a piece,
// when the piece was there to hash and when it was done.
//
// Several hashes are recorded in rounds, as the bench takes its samples, each round after
// as many hashes of stage 10 on the same input, and the one whose time is the median is
// shown: a table per thread and an SVG of both threads.

import * as stage10 from '../../../steps/10-simd-one-block/blake3.ts';
import * as stage11 from '../../../steps/11-every-core/blake3.ts';
import type { TimelineEvent } from '../../../steps/11-every-core/blake3.ts';
import type { CoresOptions, CoresResult } from './cores.ts';
import { formatSize } from '../format.ts';
import { patternInput } from '../vectors.ts';

/** What cores.html asks its measuring worker for: bench:cores' rounds, or a timeline. */
export type CoresRequest = { kind: 'rounds'; options: CoresOptions } | { kind: 'timeline'; options: TimelineOptions };

/** What the cores page's worker (workers/cores.worker.ts) does: the measurement a request asks for. */
export interface CoresWorkerApi {
  measure(request: CoresRequest): Promise<CoresResult | TimelineResult>;
}

export interface TimelineOptions {
  size: number;
  /** Hashes recorded (after a warm-up); the median one is shown. */
  hashes: number;
  /** The input in a SharedArrayBuffer, so each worker copies its own pieces. */
  sharedInput?: boolean;
}

/** One hash on the pool: its time, and what each thread did, in ms from the call. */
export interface RecordedHash {
  ms: number;
  /** Stage 10's time for the same input, the mean of its hashes in the same round, just before. */
  stage10Ms: number;
  round: number;
  /** The round's first hash: its worker may have been asleep. */
  first: boolean;
  events: TimelineEvent[];
  pieces: number;
  byWorkers: number;
}

export interface TimelineResult extends TimelineOptions {
  runtime: string;
  /** How long start() took to have its worker ready, ms (no threshold timed: the size is given). */
  startMs: number;
  /** The split's speed estimates after the hashes, ms a MiB. */
  speeds: stage11.Speeds;
  recorded: RecordedHash[];
}

const clock = () => performance.timeOrigin + performance.now();
/** Hashes each way in a round, about a bench sample's worth at 16 MiB. */
const HASHES_A_ROUND = 5;

/** Records `hashes` hashes of stage 11 on one worker, in rounds that each follow as many of stage 10. */
export async function measureTimeline(options: TimelineOptions, runtime: string): Promise<TimelineResult> {
  const { size, hashes, sharedInput } = options;
  const started = clock();
  await stage11.start({ workers: 1, minBytes: size, timeline: true });
  const startMs = clock() - started;
  try {
    const use = stage11.threadUse();
    if (use.fallback) throw new Error(`stage 11 cannot use its pool here: ${use.fallback}`);
    const input = new Uint8Array(sharedInput ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
    input.set(patternInput(size));
    for (let warm = 0; warm < 20; warm++) {
      stage10.hash(input);
      stage11.hash(input);
    }
    const recorded: RecordedHash[] = [];
    // As the bench takes its samples: a few hashes of stage 10 back to back, then as many of
    // stage 11, round after round, with a moment between rounds (the worker goes back to its
    // event loop and may sleep, so the first hash of a round wakes it; the others find it awake).
    for (let round = 0; recorded.length < hashes; round++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const count = Math.min(HASHES_A_ROUND, hashes - recorded.length);
      let begin = clock();
      for (let i = 0; i < count; i++) stage10.hash(input);
      const stage10Ms = (clock() - begin) / count;
      for (let i = 0; i < count; i++) {
        begin = clock();
        stage11.hash(input);
        const ms = clock() - begin;
        const events = (stage11.lastTimeline() ?? []).map((event) => ({ ...event, start: event.start - begin, end: event.end - begin }));
        const split = stage11.threadUse().lastSplit!;
        recorded.push({ ms, stage10Ms, events, pieces: split.pieces, byWorkers: split.byWorkers, round, first: i === 0 });
      }
    }
    return { ...options, runtime, startMs, speeds: { ...stage11.speeds()! }, recorded };
  } finally {
    stage11.stop();
  }
}

/** The recorded hash whose time is the median. */
export function medianHash(result: TimelineResult): RecordedHash {
  const sorted = [...result.recorded].sort((a, b) => a.ms - b.ms);
  return sorted[(sorted.length - 1) >> 1];
}

interface ThreadRow {
  thread: number;
  copy: number;
  hash: number;
  wait: number;
  first: number;
  last: number;
  pieces: number;
}

function rows(hash: RecordedHash): ThreadRow[] {
  const threads = [...new Set(hash.events.map((event) => event.thread))].sort((a, b) => a - b);
  return threads.map((thread) => {
    const mine = hash.events.filter((event) => event.thread === thread);
    const total = (what: TimelineEvent['what'][]) => mine.filter((event) => what.includes(event.what)).reduce((sum, event) => sum + event.end - event.start, 0);
    return {
      thread,
      copy: total(['copy']),
      hash: total(['hash', 'tail', 'redo']),
      wait: total(['wait']),
      first: Math.min(...mine.map((event) => event.start)),
      last: Math.max(...mine.map((event) => event.end)),
      pieces: mine.filter((event) => event.what === 'hash' || event.what === 'redo').length,
    };
  });
}

const ms = (value: number) => value.toFixed(2);

/** The report, line by line: the first says what was measured, the rest a table per thread and what the median hash shows. */
export function describeTimeline(result: TimelineResult): string[] {
  const hash = medianHash(result);
  const table = rows(hash);
  const header = ['thread', 'first mark', 'copy', 'hash', 'wait', 'idle', 'done at', 'pieces'];
  const lines = [
    header,
    ...table.map((row) => [
      row.thread === 0 ? '0 (calling)' : `${row.thread} (worker)`,
      ms(row.first),
      ms(row.copy),
      ms(row.hash),
      ms(row.wait),
      ms(hash.ms - row.copy - row.hash - row.wait),
      ms(row.last),
      String(row.pieces),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  const text = lines.map((line) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('   '));
  const { speeds } = result;
  const times = result.recorded.map((r) => r.ms).sort((a, b) => a - b);
  const firsts = result.recorded.filter((r) => r.first).map((r) => r.ms).sort((a, b) => a - b);
  const where = result.sharedInput ? ', the input in shared memory' : '';
  return [
    `${formatSize(result.size)}, ${result.recorded.length} hashes on 2 threads in rounds of ${HASHES_A_ROUND}, each round after ${HASHES_A_ROUND} of stage 10, ${result.runtime}${where}`,
    `the pool's worker was ready ${ms(result.startMs)} ms after start(); the median hash took ${ms(hash.ms)} ms (stage 10 in its round: ${ms(hash.stage10Ms)} ms, ${(hash.stage10Ms / hash.ms).toFixed(2)}x); all of them ${ms(times[0])} to ${ms(times[times.length - 1])} ms, the first of each round ${ms(firsts[0])} to ${ms(firsts[firsts.length - 1])}`,
    `its ${hash.pieces} pieces: ${hash.byWorkers} hashed by the worker; ms from the call:`,
    ...text,
    `speeds the split follows now (ms a MiB): copy ${speeds.copy.toFixed(3)}, calling thread's hash ${speeds.own.toFixed(3)}, worker's hash ${speeds.worker.toFixed(3)}`,
  ];
}

const COLORS: Record<TimelineEvent['what'], string> = { copy: '#d97706', hash: '#2563eb', tail: '#7c3aed', wait: '#9ca3af', redo: '#dc2626' };

/** The median hash as an SVG: one lane per thread, time from left to right. */
export function timelineSvg(result: TimelineResult): string {
  const hash = medianHash(result);
  const threads = [...new Set(hash.events.map((event) => event.thread))].sort((a, b) => a - b);
  const end = Math.max(hash.ms, ...hash.events.map((event) => event.end));
  const width = 1000;
  const left = 110;
  const lane = 40;
  const x = (t: number) => left + ((width - left - 20) * t) / end;
  const top = 40;
  const height = top + threads.length * lane + 50;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="10" y="20">Stage 11, ${formatSize(result.size)}: the median of ${result.recorded.length} hashes, ${ms(hash.ms)} ms (stage 10 in its round: ${ms(hash.stage10Ms)} ms), ${result.runtime}</text>`,
  ];
  threads.forEach((thread, i) => {
    const y = top + i * lane;
    parts.push(`<text x="10" y="${y + 22}">${thread === 0 ? 'calling thread' : `worker ${thread}`}</text>`);
    for (const event of hash.events.filter((e) => e.thread === thread)) {
      const w = Math.max(0.5, x(event.end) - x(event.start));
      parts.push(`<rect x="${x(event.start).toFixed(1)}" y="${y + 6}" width="${w.toFixed(1)}" height="${lane - 14}" fill="${COLORS[event.what]}"><title>${event.what}${event.piece === undefined ? '' : ` piece ${event.piece}`}: ${ms(event.start)} to ${ms(event.end)} ms</title></rect>`);
    }
  });
  const axis = top + threads.length * lane + 4;
  for (let t = 0; t <= end; t += end > 20 ? 5 : 1) {
    parts.push(`<line x1="${x(t)}" y1="${top}" x2="${x(t)}" y2="${axis}" stroke="#e5e7eb"/><text x="${x(t)}" y="${axis + 14}" text-anchor="middle">${t} ms</text>`);
  }
  const legend = Object.entries(COLORS).map(([what, color], i) => `<rect x="${left + i * 90}" y="${axis + 24}" width="12" height="12" fill="${color}"/><text x="${left + i * 90 + 16}" y="${axis + 34}">${what}</text>`);
  parts.push(...legend, '</svg>');
  return parts.join('\n');
}
