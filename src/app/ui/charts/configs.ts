// Chart.js configurations for the results charts, built from the page's model and the
// theme. Plain data in, plain objects out: Chart.js itself is only loaded by the canvas.
import type { ChartConfiguration, ChartDataset, FontSpec, ScaleOptions, TooltipItem } from 'chart.js';
import { STAGES } from '../../../../steps/index.ts';
import { formatSize, formatMBps, formatRatio, formatSig } from '../../../core/format.ts';
import { cellKey, needsLogScale, type BaselineRow, type Estimate, type ResultsModel, type StepRow } from '../../../core/results/analysis/model.ts';
import type { Interval } from './chartjs.ts';
import { stepName } from '../../../core/results/analysis/step-label.ts';
import { engineColor, otherStyle, stageColor, stagePoint, type ChartTheme } from './palette.svelte.ts';
import type { RuntimeLadder } from '../../../core/results/analysis/runtime-ladder.ts';
import { BLAKE3_WASM } from '../../../../steps/baseline-info.ts';

export function font(theme: ChartTheme, scale = 1): Partial<FontSpec> {
  return { size: Math.round(theme.fontSize * scale), family: getFontFamily() };
}

function fontString(theme: ChartTheme): string {
  return `${Math.round(theme.fontSize * 0.92)}px ${getFontFamily()}`;
}

function getFontFamily(): string {
  return typeof document === 'undefined' ? 'sans-serif' : getComputedStyle(document.documentElement).fontFamily || 'sans-serif';
}

function interval(estimate: Estimate | undefined): Interval {
  if (!estimate || !Number.isFinite(estimate.lo) || !Number.isFinite(estimate.hi)) return null;
  return [estimate.lo, estimate.hi];
}

/** The 1-2-5 step at or below x (x > 0): log axes start and end on round numbers. */
export function niceFloor(x: number): number {
  const e = 10 ** Math.floor(Math.log10(x) + 1e-9);
  const m = x / e;
  return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * e;
}

/** The 1-2-5 step at or above x (x > 0). */
export function niceCeil(x: number): number {
  const e = 10 ** Math.floor(Math.log10(x) + 1e-9);
  const m = x / e;
  return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * e;
}

/** An axis tick: as few digits as the value needs ("0.02", "5", "1,000"). */
export function tickNumber(value: number): string {
  return Number(value.toPrecision(3)).toLocaleString('en-US', { maximumSignificantDigits: 3 });
}

export function valueAxis(theme: ChartTheme, values: number[], title: string, suffix = '', log = needsLogScale(values)): ScaleOptions<'linear' | 'logarithmic'> {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  // Bars on a log axis grow from the axis minimum: start a step below the smallest value so it still shows.
  const bounds = positive.length === 0 ? {} : log ? { min: niceFloor(Math.min(...positive) / 1.5), max: niceCeil(Math.max(...positive) * 1.1) } : { suggestedMax: Math.max(...positive) };
  return {
    type: log ? 'logarithmic' : 'linear',
    beginAtZero: !log,
    ...bounds,
    title: { display: true, text: log ? `${title} (log scale)` : title, color: theme.muted, font: font(theme) },
    ticks: {
      color: theme.muted,
      font: font(theme, 0.92),
      maxRotation: 0,
      // Log axes get a tick at every 1..9 step; label only 1, 2 and 5 (only powers of ten on
      // a phone), or the labels run into each other.
      callback(value) {
        const v = Number(value);
        if (log) {
          const mantissa = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
          const labelled = theme.narrow ? [1] : [1, 2, 5];
          if (!labelled.some((m) => Math.abs(mantissa - m) < 1e-6)) return '';
        }
        return tickNumber(v) + suffix;
      },
    },
    grid: { color: theme.grid },
    border: { color: theme.border },
  } as ScaleOptions<'linear' | 'logarithmic'>;
}

/**
 * No animation for bars on a logarithmic axis: grouped bars growing from a log axis's
 * minimum were seen left drawn part-way (shorter than their whiskers) long after the
 * 200 ms animation; a static chart is always right.
 */
function barAnimation(theme: ChartTheme, values: number[]): false | { duration: number } {
  return needsLogScale(values) ? false : growing(theme);
}

/** Charts grow in over 200 ms, but for a reader whose system asks for less motion: theirs appear drawn. */
function growing(theme: ChartTheme): false | { duration: number } {
  return theme.still ? false : { duration: 200 };
}

/** Breaks a label into lines of at most `width` characters at spaces (a longer word keeps its own line). */
export function wrapLabel(label: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of label.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Characters per line of a category label on a phone: the bars keep most of the width. */
const NARROW_LABEL_CHARS = 16;

function categoryAxis(theme: ChartTheme): ScaleOptions<'category'> {
  return {
    type: 'category',
    ticks: {
      color: theme.fg,
      font: font(theme),
      // Every bar keeps its name: on a phone long names wrap instead of being cut at the canvas edge.
      autoSkip: false,
      callback(this: { getLabelForValue(value: number): string }, value: number | string) {
        const label = this.getLabelForValue(Number(value));
        return theme.narrow ? wrapLabel(label, NARROW_LABEL_CHARS) : label;
      },
    },
    grid: { display: false },
    border: { color: theme.border },
  } as ScaleOptions<'category'>;
}

export function legend(theme: ChartTheme, position: 'top' | 'bottom' | 'right' = 'bottom') {
  return {
    position,
    labels: { color: theme.fg, font: font(theme, 0.95), boxWidth: theme.fontSize * 2, boxHeight: theme.fontSize * 0.5, padding: theme.fontSize },
  };
}

export function tooltip(theme: ChartTheme) {
  return { titleFont: font(theme), bodyFont: font(theme, 0.95) };
}

/** Colour of each contestant: stages along one sweep, the rest distinct. */
export function contestantColors(model: ResultsModel, theme: ChartTheme): Map<string, string> {
  const stages = model.contestants.filter((c) => c.kind === 'stage');
  const others = model.contestants.filter((c) => c.kind !== 'stage');
  const colors = new Map<string, string>();
  // By position in the lesson, so a stage keeps its colour whichever stages a run includes.
  const lesson = new Map(STAGES.map((stage) => [stage.id, stage.index]));
  stages.forEach((c, i) => colors.set(c.id, stageColor(lesson.get(c.id) ?? i, theme)));
  for (const c of others) colors.set(c.id, otherStyle(c.id, theme).color);
  return colors;
}

/** A contestant's point style: the stage's own (by its place in the lesson), a short line for a baseline. */
function pointStyleOf(id: string, kind: string): string {
  const index = STAGES.findIndex((stage) => stage.id === id);
  return kind === 'stage' && index >= 0 ? stagePoint(index) : 'line';
}

/**
 * MB/s of every contestant at every size: one line each, with 95% intervals as whiskers.
 * A run of one size has no line to draw (every point would sit on one vertical): it is a
 * bar per contestant instead.
 */
export function throughputChart(model: ResultsModel, theme: ChartTheme): ChartConfiguration<'line'> | ChartConfiguration<'bar'> {
  if (model.sizes.length === 1) return throughputBars(model, model.sizes[0], theme);
  const colors = contestantColors(model, theme);
  const datasets: ChartDataset<'line', (number | null)[]>[] = [];
  const intervals: Interval[][] = [];
  const values: number[] = [];
  for (const contestant of model.contestants) {
    const estimates = model.sizes.map((size) => model.throughput.get(cellKey(contestant.id, size)));
    if (estimates.every((e) => !e)) continue;
    const color = colors.get(contestant.id)!;
    const data = estimates.map((e) => (e ? e.center : null));
    // The axis must hold the whiskers too, not only the medians.
    for (const e of estimates) if (e) values.push(e.center, e.lo, e.hi);
    const stage = contestant.kind === 'stage';
    datasets.push({
      label: contestant.title,
      data,
      borderColor: color,
      backgroundColor: color,
      borderWidth: theme.presenter ? 3 : 2,
      borderDash: stage ? [] : otherStyle(contestant.id, theme).dash,
      pointStyle: pointStyleOf(contestant.id, contestant.kind) as 'circle',
      pointRadius: (theme.presenter ? 5 : 4) + (stage ? 0 : 2),
      pointBorderWidth: stage ? 1 : 2,
      spanGaps: false,
    });
    intervals.push(estimates.map(interval));
  }
  const legendOptions = legend(theme, theme.presenter || theme.narrow ? 'bottom' : 'right');
  return {
    type: 'line',
    data: { labels: model.sizes.map(formatSize), datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: growing(theme),
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { ...categoryAxis(theme), title: { display: true, text: 'input size', color: theme.muted, font: font(theme) } },
        y: valueAxis(theme, values, 'MB/s'),
      },
      plugins: {
        // The legend shows each series' point style, the shape to look for where colours are hard to tell apart.
        legend: { ...legendOptions, labels: { ...legendOptions.labels, usePointStyle: true, pointStyleWidth: theme.fontSize * 1.6 } },
        tooltip: {
          ...tooltip(theme),
          callbacks: {
            label(item: TooltipItem<'line'>) {
              const range = intervals[item.datasetIndex]?.[item.dataIndex];
              const text = `${item.dataset.label}: ${formatMBps(Number(item.raw))}`;
              return range ? `${text} (95% CI ${formatSig(range[0])}–${formatSig(range[1])})` : text;
            },
          },
        },
        intervals: { data: intervals },
      },
    },
  };
}

/** One size: MB/s per contestant as bars, in the contestants' colours, with their intervals. */
function throughputBars(model: ResultsModel, size: number, theme: ChartTheme): ChartConfiguration<'bar'> {
  const colors = contestantColors(model, theme);
  const rows = model.contestants.flatMap((contestant) => {
    const estimate = model.throughput.get(cellKey(contestant.id, size));
    return estimate ? [{ contestant, estimate }] : [];
  });
  const values = rows.flatMap(({ estimate }) => [estimate.center, estimate.lo, estimate.hi]);
  return {
    type: 'bar',
    data: {
      labels: rows.map(({ contestant }) => shortStageLabel(contestant.title)),
      datasets: [
        {
          label: `MB/s at ${formatSize(size)}`,
          data: rows.map(({ estimate }) => estimate.center),
          backgroundColor: rows.map(({ contestant }) => colors.get(contestant.id) ?? theme.accent),
          borderWidth: 0,
        },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: barAnimation(theme, values),
      scales: { x: valueAxis(theme, values, `MB/s at ${formatSize(size)}`), y: categoryAxis(theme) },
      plugins: {
        legend: { display: false },
        tooltip: { ...tooltip(theme), callbacks: { label: (item: TooltipItem<'bar'>) => formatMBps(Number(item.raw)) } },
        intervals: { data: [rows.map(({ estimate }) => interval(estimate))], color: theme.fg },
      },
    },
  };
}

/** The chart's text alternative and height: a line chart over sizes, or bars for one size. */
export function throughputChartFrame(model: ResultsModel, theme: ChartTheme): { label: string; height: string } {
  if (model.sizes.length === 1) {
    return {
      label: `Bar chart of throughput in MB/s at ${formatSize(model.sizes[0])} for each contestant; the table below has the same numbers.`,
      height: barChartHeight(model.contestants.length, theme),
    };
  }
  return {
    label: 'Line chart of throughput in MB/s by input size for each contestant; the table below has the same numbers.',
    // Tall enough for a legend of every stage and baseline beside the chart.
    height: theme.presenter || theme.narrow ? '34rem' : '30rem',
  };
}

function shortStageLabel(title: string): string {
  // "4. State in local variables" -> "4 State in local variables": the number leads, so the axis reads as the lesson.
  return title.replace(/^(\d+)\.\s*/, '$1 ');
}

/** Each step's measured speedup over the previous stage beside the article's figure. */
export function speedupChart(rows: StepRow[], theme: ChartTheme): ChartConfiguration<'bar'> {
  const measured = rows.map((r) => r.speedup);
  const article = rows.map((r) => r.article);
  const values = [...measured, ...article.filter((v): v is number => v !== null), ...rows.flatMap((r) => r.range ?? []), 1];
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => stepName(r)),
      datasets: [
        { label: 'Measured here', data: measured, backgroundColor: theme.accent, borderColor: theme.accent, borderWidth: 0 },
        { label: 'Article (Apple M1 Max)', data: article, backgroundColor: theme.muted, borderColor: theme.muted, borderWidth: 0 },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: growing(theme),
      layout: { padding: { top: theme.fontSize * 1.6 } },
      scales: {
        x: valueAxis(theme, values, 'speedup over the stage it is compared with', 'x'),
        y: categoryAxis(theme),
      },
      plugins: {
        legend: legend(theme, 'bottom'),
        tooltip: {
          ...tooltip(theme),
          callbacks: { label: (item: TooltipItem<'bar'>) => `${item.dataset.label}: ${item.raw === null ? 'no figure' : formatRatio(Number(item.raw))}` },
        },
        intervals: { data: [rows.map((r) => r.range), []], color: theme.fg },
        referenceLine: { value: 1, color: theme.fg, label: 'no change', font: fontString(theme) },
      },
    },
  };
}

/** Every contestant as a multiple of blake3-wasm's throughput at one size. */
export function baselineChart(rows: BaselineRow[], model: ResultsModel, theme: ChartTheme): ChartConfiguration<'bar'> {
  const colors = contestantColors(model, theme);
  const ratios = rows.map((r) => r.ratio);
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => shortStageLabel(r.title)),
      datasets: [
        {
          label: '× blake3-wasm',
          data: ratios,
          backgroundColor: rows.map((r) => colors.get(r.contestant) ?? theme.accent),
          borderWidth: 0,
        },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: growing(theme),
      layout: { padding: { top: theme.fontSize * 1.6 } },
      scales: {
        x: valueAxis(theme, [...ratios, ...rows.flatMap((r) => r.range ?? []), 1], 'throughput relative to blake3-wasm', 'x'),
        y: categoryAxis(theme),
      },
      plugins: {
        legend: { display: false },
        tooltip: { ...tooltip(theme), callbacks: { label: (item: TooltipItem<'bar'>) => `${formatRatio(Number(item.raw))} blake3-wasm` } },
        intervals: { data: [rows.map((r) => r.range)], color: theme.fg },
        referenceLine: { value: 1, color: theme.fg, label: BLAKE3_WASM.id, font: fontString(theme) },
      },
    },
  };
}

export interface CompareBar {
  title: string;
  a: Estimate | null;
  b: Estimate | null;
}

/** Two result sets side by side: MB/s per contestant at one size (in two engines' colours when given). */
export function compareChart(bars: CompareBar[], labels: [string, string], theme: ChartTheme, colors?: [string, string]): ChartConfiguration<'bar'> {
  const a = bars.map((bar) => bar.a?.center ?? null);
  const b = bars.map((bar) => bar.b?.center ?? null);
  const values = [...a, ...b].filter((v): v is number => v !== null);
  for (const bar of bars) for (const e of [bar.a, bar.b]) if (e) values.push(e.lo, e.hi);
  const [first, second] = colors ?? [theme.accent, theme.dark ? 'hsl(35 85% 60%)' : 'hsl(30 85% 42%)'];
  return {
    type: 'bar',
    data: {
      labels: bars.map((bar) => shortStageLabel(bar.title)),
      datasets: [
        { label: labels[0], data: a, backgroundColor: first, borderWidth: 0 },
        { label: labels[1], data: b, backgroundColor: second, borderWidth: 0 },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: barAnimation(theme, values),
      scales: { x: valueAxis(theme, values, 'MB/s'), y: categoryAxis(theme) },
      plugins: {
        legend: legend(theme, 'top'),
        tooltip: { ...tooltip(theme), callbacks: { label: (item: TooltipItem<'bar'>) => `${item.dataset.label}: ${item.raw === null ? 'not measured' : formatMBps(Number(item.raw))}` } },
        intervals: { data: [bars.map((bar) => interval(bar.a ?? undefined)), bars.map((bar) => interval(bar.b ?? undefined))], color: theme.fg },
      },
    },
  };
}

/**
 * One ladder per engine at one size: a bar per contestant and engine, in the engine's
 * colour, as MB/s or as a multiple of blake3-wasm measured in the same engine.
 */
export function ladderChart(ladder: RuntimeLadder, metric: 'ratio' | 'mbps', theme: ChartTheme): ChartConfiguration<'bar'> {
  const value = (cell: RuntimeLadder['rows'][number]['cells'][number]) => (cell?.estimate ? (metric === 'ratio' ? cell.ratio : cell.estimate.center) : null);
  const values: number[] = metric === 'ratio' ? [1] : [];
  const datasets = ladder.runtimes.map((runtime, e) => {
    const data = ladder.rows.map((row) => value(row.cells[e]));
    for (const v of data) if (v !== null) values.push(v);
    const color = engineColor(runtime.jsEngine, theme);
    return { label: `${runtime.name} (${runtime.jsEngine})`, data, backgroundColor: color, borderColor: color, borderWidth: 0 };
  });
  // Whiskers only for MB/s: a ratio's interval needs both medians' intervals, which the table gives.
  const intervals = metric === 'mbps' ? ladder.runtimes.map((_, e) => ladder.rows.map((row) => interval(row.cells[e]?.estimate ?? undefined))) : [];
  for (const list of intervals) for (const range of list) if (range) values.push(...range);
  const axis = metric === 'ratio' ? valueAxis(theme, values, '× blake3-wasm in the same engine', 'x') : valueAxis(theme, values, 'MB/s');
  return {
    type: 'bar',
    data: { labels: ladder.rows.map((row) => shortStageLabel(row.title)), datasets },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: barAnimation(theme, values),
      layout: { padding: { top: metric === 'ratio' ? theme.fontSize * 1.6 : 0 } },
      scales: { x: axis, y: categoryAxis(theme) },
      plugins: {
        legend: legend(theme, 'bottom'),
        tooltip: {
          ...tooltip(theme),
          callbacks: {
            label: (item: TooltipItem<'bar'>) =>
              `${item.dataset.label}: ${item.raw === null ? 'not measured' : metric === 'ratio' ? `${formatRatio(Number(item.raw))} blake3-wasm` : formatMBps(Number(item.raw))}`,
          },
        },
        intervals: { data: intervals, color: theme.fg },
        ...(metric === 'ratio' ? { referenceLine: { value: 1, color: theme.fg, label: BLAKE3_WASM.id, font: fontString(theme) } } : {}),
      },
    },
  };
}

/** Height for a horizontal bar chart: enough room per row that labels never overlap. */
export function barChartHeight(rows: number, theme: ChartTheme, perRow = 1): string {
  // On a phone a name may wrap to two lines.
  const rowPx = theme.fontSize * (theme.narrow ? 3 : 2.4) * perRow;
  return `${Math.round(Math.max(rows, 2) * rowPx + theme.fontSize * 9)}px`;
}
