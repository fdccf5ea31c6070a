// A StageProfile as `go tool pprof -top` prints one: a few header lines saying what was
// profiled, for how long, with how many samples and by which tool, then the rows with
// pprof's columns (flat, flat%, sum%, cum, cum%, name), hottest first. The name column
// carries the file and line too, as `pprof -top -lines` does, since two stages' files
// can both have a `hash`.

import { top, type StageProfile } from './profile.ts';

/** A duration as pprof writes one: "1.25s", "340ms", "12.5ms", "250us". */
export function pprofDuration(ms: number): string {
  const trim = (value: number) => String(Number(value.toFixed(2)));
  if (ms >= 1000) return `${trim(ms / 1000)}s`;
  if (ms >= 1 || ms === 0) return `${trim(ms)}ms`;
  return `${trim(ms * 1000)}us`;
}

const pct = (n: number, total: number) => `${(total > 0 ? (100 * n) / total : 0).toFixed(2)}%`;

const sizeLabel = (bytes: number) =>
  bytes >= 1 << 20 && bytes % (1 << 20) === 0 ? `${bytes >> 20} MiB` : bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} B`;

export interface TopTextOptions {
  /** Rows to show; pprof's `top` shows 10. */
  count?: number;
  /** The stage's title, shown beside its id. */
  title?: string;
}

/** The profile as pprof's `top` text. */
export function formatTop(profile: StageProfile, options: TopTextOptions = {}): string {
  const count = options.count ?? 10;
  const rows = top(profile, count);
  const totalMs = profile.durationMs;
  const { source } = profile;
  const shownSamples = rows.reduce((n, row) => n + profile.functions[row.fn].selfSamples, 0);
  const everyMs = profile.samples > 0 ? totalMs / profile.samples : 0;
  const lines = [
    `Stage: ${profile.stage}${options.title ? ` (${options.title})` : ''}, hashing ${sizeLabel(profile.inputBytes)} over and over`,
    'Type: cpu',
    `Tool: ${source.tool}, V8 ${source.engine}, ${/^v\d/.test(source.runtime) ? `Node ${source.runtime}` : source.runtime}, on ${source.cpu}`,
    `Duration: ${pprofDuration(totalMs)}, Total samples = ${profile.samples} (one every ${pprofDuration(everyMs)}; asked every ${pprofDuration(source.intervalUs / 1000)})`,
    ...(profile.note ? [`Note: ${profile.note}`] : []),
    `Showing nodes accounting for ${pprofDuration(shownSamples * everyMs)}, ${pct(shownSamples, profile.samples)} of ${pprofDuration(totalMs)} total`,
    `Showing top ${rows.length} nodes out of ${profile.functions.filter((f) => f.selfSamples + f.totalSamples > 0).length}`,
    `${'flat'.padStart(10)} ${'flat%'.padStart(6)} ${'sum%'.padStart(6)} ${'cum'.padStart(10)} ${'cum%'.padStart(6)}  name`,
  ];
  let sum = 0;
  for (const row of rows) {
    const f = profile.functions[row.fn];
    sum += f.selfSamples;
    const where = f.file ? ` ${f.file}${f.line > 0 ? `:${f.line}` : ''}` : '';
    lines.push(
      `${pprofDuration(row.flatMs).padStart(10)} ${pct(f.selfSamples, profile.samples).padStart(6)} ${pct(sum, profile.samples).padStart(6)} ` +
        `${pprofDuration(row.cumMs).padStart(10)} ${pct(f.totalSamples, profile.samples).padStart(6)}  ${f.name}${where}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
