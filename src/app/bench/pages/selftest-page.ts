// The self-test page: starts the self-test worker, draws one table row per stage or
// library as results arrive, and leaves the verdict on <body data-status> for tools.
import { startWorker } from '../../ui/run/start-worker.ts';
import type { SelftestApi } from '../../../../workers/selftest.worker.ts';
import type { SelftestRow } from '../../../core/bench/selftest.ts';

const tbody = document.getElementById('rows') as HTMLTableSectionElement;
const status = document.getElementById('status') as HTMLParagraphElement;

function cell(row: HTMLTableRowElement, text: string, className = ''): HTMLTableCellElement {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function detail(parent: HTMLElement, text: string): void {
  const span = document.createElement('span');
  span.className = 'detail';
  span.textContent = text;
  parent.append(span);
}

function titleCell(tr: HTMLTableRowElement, title: string, version?: string): void {
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = title;
  if (version) detail(th, version);
  tr.append(th);
}

function renderPending(id: string, title: string, version?: string): void {
  const tr = tbody.insertRow();
  tr.id = `row-${id}`;
  tr.className = 'pending';
  titleCell(tr, title, version);
  cell(tr, '…', 'count');
  cell(tr, '…', 'count');
  cell(tr, 'waiting', 'verdict');
}

function renderRow(result: SelftestRow): void {
  const tr = document.getElementById(`row-${result.id}`) as HTMLTableRowElement;
  tr.replaceChildren();
  tr.className = result.verdict;
  tr.dataset.verdict = result.verdict;
  tr.dataset.vectors = `${result.vectorsPassed}/${result.vectorsTotal}`;
  tr.dataset.larger = `${result.largerPassed}/${result.largerTotal}`;
  titleCell(tr, result.title, result.version);
  cell(tr, result.verdict === 'unavailable' ? '—' : tr.dataset.vectors, 'count');
  cell(tr, result.verdict === 'unavailable' ? '—' : tr.dataset.larger, 'count');
  const verdict = cell(tr, { pass: 'pass', fail: 'FAIL', unavailable: 'not available' }[result.verdict], 'verdict');
  const details = [...result.failures.slice(0, 6)];
  if (result.failures.length > 6) details.push(`and ${result.failures.length - 6} more`);
  if (result.note) details.push(result.note);
  for (const text of details) detail(verdict, text);
}

function finish(verdict: 'pass' | 'fail', message: string): void {
  status.textContent = message;
  status.className = verdict;
  document.body.dataset.status = verdict;
}

/**
 * The longest one stage or library may take for all its checks (`?limit=` seconds). Every
 * one takes a few seconds even on a slow machine; one that takes longer hangs, and must not
 * keep the page (and the tools that read its verdict) waiting forever.
 */
const params = new URLSearchParams(location.search);
const CONTESTANT_LIMIT_MS = Number(params.get('limit') ?? 30) * 1000 || 30_000;
/** Tries per contestant before it is failed for hanging or for crashing its worker. */
const ATTEMPTS = 3;
/** The pause before a fresh worker, so the engine can give back what the stopped one held. */
const RETRY_PAUSE_MS = 1000;
/** `?faults` adds the contestants broken on purpose, to show what a failure looks like. */
const withFaults = params.has('faults');

function startSelftestWorker() {
  return startWorker<SelftestApi>(new Worker(new URL('../../../../workers/selftest.worker.ts', import.meta.url), { type: 'module' }), 'the self-test worker');
}

function failedRow(id: string, title: string, version: string | undefined, reason: string): SelftestRow {
  return { id, title, version, kind: 'stage', vectorsPassed: 0, vectorsTotal: 0, largerPassed: 0, largerTotal: 0, failures: [reason], verdict: 'fail' };
}

async function main(): Promise<void> {
  let current = startSelftestWorker();
  const list = await current.call((api) => api.list(withFaults), { timeoutMs: CONTESTANT_LIMIT_MS, late: 'the self-test worker did not start' });
  for (const { id, title, version } of list) renderPending(id, title, version);
  const started = performance.now();
  const rows: SelftestRow[] = [];
  for (const [index, { id, title, version }] of list.entries()) {
    status.textContent = `Checking ${index + 1} of ${list.length}: ${title}…`;
    const late = `did not finish within ${CONTESTANT_LIMIT_MS / 1000} s: it hangs or is far too slow`;
    let row: SelftestRow | undefined;
    // A contestant that hangs, or whose worker fails, gets up to two more tries, each in a
    // fresh worker started after a pause: a hang or a crash that does not come back is the
    // engine's hiccup (seen in WebKit and Firefox on a busy machine, where a stopped worker's
    // memory is not yet given back), and a wrong digest, which is what this page is for,
    // would show on any try.
    let firstProblem: string | undefined;
    for (let attempt = 1; !row; attempt++) {
      try {
        row = await current.call((api) => api.check(index, withFaults), { timeoutMs: CONTESTANT_LIMIT_MS, late });
        if (firstProblem) {
          const tries = attempt === 2 ? 'the first try' : `the first ${attempt - 1} tries`;
          row.note = [`${tries} failed (${firstProblem.replace(/:.*/, '')}); a fresh worker finished`, row.note].filter(Boolean).join('; ');
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        firstProblem ??= reason;
        // The worker is stuck or gone: go on in a fresh one.
        current.stop();
        if (attempt === ATTEMPTS) row = failedRow(id, title, version, `${reason}, ${ATTEMPTS} times`);
        else await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
        current = startSelftestWorker();
      }
    }
    rows.push(row);
    renderRow(row);
  }
  current.stop();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failed = rows.filter((row) => row.verdict === 'fail');
  const unavailable = rows.filter((row) => row.verdict === 'unavailable').length;
  if (failed.length) {
    finish('fail', `${failed.length} of ${rows.length} failed: ${failed.map((row) => row.title).join(', ')} (${seconds} s).`);
  } else {
    const skipped = unavailable ? `, ${unavailable} not available in this browser` : '';
    finish('pass', `All ${rows.length - unavailable} passed${skipped} (${seconds} s).`);
  }
}

main().catch((error: unknown) => finish('fail', `The self-test could not run: ${error instanceof Error ? error.message : String(error)}`));
