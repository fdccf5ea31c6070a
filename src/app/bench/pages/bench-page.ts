// bench.html: the engine with a plain table, for the command line to drive in headless
// Chromium (`npm run bench -- --browser`) and for anyone who wants raw numbers. Tools
// call `window.blake3LabBench.run(plan)` and get the results document back; progress
// goes to `window.blake3LabBenchProgress` when a tool has put a function there.

import { startBenchmark, DEFAULT_CONTESTANT_IDS, DEFAULT_ROUNDS, DEFAULT_SIZES, parseSize, type BenchPlan, type Progress } from '../../ui/run/browser.ts';
import { formatSize } from '../../../core/format.ts';
import type { Results } from '../../../core/bench/results.ts';
import './file.ts';

type Tuning = Parameters<typeof startBenchmark>[2];

declare global {
  interface Window {
    blake3LabBench: { run(plan: BenchPlan, tuning?: Tuning): Promise<Results>; cancel(): void };
    blake3LabBenchProgress?: (progress: Progress) => void;
  }
}

const rows = document.getElementById('rows') as HTMLTableSectionElement;
const status = document.getElementById('status') as HTMLParagraphElement;
const startButton = document.getElementById('start') as HTMLButtonElement;
const cancelButton = document.getElementById('cancel') as HTMLButtonElement;
let cancelCurrent: (() => void) | undefined;

function planFromAddress(): BenchPlan {
  const query = new URLSearchParams(location.search);
  const list = (key: string) => query.get(key)?.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    contestants: list('contestants') ?? [...DEFAULT_CONTESTANT_IDS],
    sizes: list('sizes')?.map(parseSize) ?? [...DEFAULT_SIZES],
    rounds: query.has('rounds') ? Number(query.get('rounds')) : DEFAULT_ROUNDS,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function describeNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toPrecision(3)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

function render(results: Results): void {
  const titles = new Map(results.contestants.map((c) => [c.id, c.title]));
  rows.replaceChildren(
    ...results.runs.map((run) => {
      const tr = document.createElement('tr');
      tr.className = run.status;
      tr.dataset.contestant = run.contestant;
      tr.dataset.size = String(run.size);
      tr.dataset.status = run.status;
      const cells = [
        titles.get(run.contestant) ?? run.contestant,
        formatSize(run.size),
        run.status,
        String(run.nsPerOp.length),
        run.nsPerOp.length ? `${describeNs(median(run.nsPerOp))} (${((run.size * 1e3) / median(run.nsPerOp)).toFixed(1)} MB/s)` : '—',
      ];
      cells.forEach((text, i) => {
        const td = tr.insertCell();
        td.textContent = text;
        td.className = i === 2 ? 'status' : i >= 3 ? 'number' : '';
      });
      if (run.reason) {
        const reason = document.createElement('span');
        reason.className = 'reason';
        reason.textContent = run.reason;
        tr.cells[2].append(reason);
      }
      return tr;
    }),
  );
}

function showProgress(progress: Progress): void {
  const where = progress.round === 0 ? 'preparing' : `round ${progress.round} of ${progress.rounds}`;
  status.textContent = `${Math.round(progress.fraction * 100)}% · ${where} · ${progress.contestant} at ${formatSize(progress.size)}`;
  window.blake3LabBenchProgress?.(progress);
}

async function run(plan: BenchPlan, tuning: Tuning = {}): Promise<Results> {
  if (cancelCurrent) throw new Error('a run is already going; cancel it first');
  document.body.dataset.status = 'running';
  startButton.disabled = true;
  cancelButton.disabled = false;
  status.textContent = 'Starting…';
  const started = performance.now();
  const running = startBenchmark(plan, { onProgress: showProgress, onResult: render }, tuning);
  cancelCurrent = running.cancel;
  try {
    const results = await running.done;
    render(results);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const stopped = results.runs.some((r) => r.status === 'cancelled');
    status.textContent = `${stopped ? 'Cancelled' : 'Done'} in ${seconds} s · ${results.env.runtimeVersion} · timer ${results.env.timerResolutionNs.toPrecision(3)} ns${results.env.crossOriginIsolated ? ' (isolated)' : ''}`;
    document.body.dataset.status = stopped ? 'cancelled' : 'done';
    return results;
  } catch (error) {
    status.textContent = `The bench could not run: ${error instanceof Error ? error.message : String(error)}`;
    document.body.dataset.status = 'error';
    throw error;
  } finally {
    cancelCurrent = undefined;
    startButton.disabled = false;
    cancelButton.disabled = true;
  }
}

window.blake3LabBench = { run, cancel: () => cancelCurrent?.() };

startButton.addEventListener('click', () => {
  try {
    run(planFromAddress()).catch(() => {});
  } catch (error) {
    status.textContent = `The address does not describe a run: ${error instanceof Error ? error.message : String(error)}`;
  }
});
cancelButton.addEventListener('click', () => cancelCurrent?.());
document.body.dataset.status = 'ready';
