// The self-test page: starts the self-test worker, draws one table row per stage or
// library as results arrive, and leaves the verdict on <body data-status> for tools.
import { proxy, wrap } from 'comlink';
import type { SelftestApi, SelftestRow } from '../../workers/selftest.worker.ts';

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

async function main(): Promise<void> {
  const worker = new Worker(new URL('../../workers/selftest.worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('error', (event) => finish('fail', `The self-test worker failed to start: ${event.message || 'unknown error'}`));
  const api = wrap<SelftestApi>(worker);
  const list = await api.list();
  for (const { id, title, version } of list) renderPending(id, title, version);
  status.textContent = `Checking ${list.length} stages and libraries…`;
  const started = performance.now();
  const rows = await api.run(proxy(renderRow));
  worker.terminate();
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

main().catch((error: unknown) => finish('fail', `The self-test could not run: ${String(error)}`));
