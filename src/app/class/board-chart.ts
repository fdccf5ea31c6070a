// The board's chart: one column per contestant of the plan, one point per machine
// (coloured by browser engine, shaped by operating system, this machine drawn larger),
// and the class median with its interquartile range as a bar and whisker per column.
import type { ChartConfiguration, ChartDataset, PointStyle, TooltipItem } from 'chart.js';
import type { Interval } from '../ui/charts/chartjs.ts';
import { font, legend, tooltip, valueAxis } from '../ui/charts/configs.ts';
import { engineColor, type ChartTheme } from '../ui/charts/palette.svelte.ts';
import { formatMBps, formatSig } from '../../core/format.ts';
import { columnLabel, throughputOf, type BoardColumn, type Spread } from './board.ts';
import type { EntrySummary } from '../../core/class/summary.ts';

type Point = { x: number; y: number; entry?: EntrySummary };

/** "Linux x86_64" -> "Linux": the family is what the shape tells. */
export function osFamily(os: string): string {
  const family = os.split(' ')[0];
  return ['Windows', 'macOS', 'Linux', 'Android', 'iOS', 'ChromeOS'].includes(family) ? family : 'other OS';
}

const OS_SHAPES: Record<string, PointStyle> = {
  Windows: 'rect',
  macOS: 'circle',
  Linux: 'triangle',
  Android: 'rectRot',
  iOS: 'star',
  ChromeOS: 'crossRot',
};

/** A fixed sideways offset per machine (from its id), so points of equal speed sit side by side, not on top of each other. */
function jitter(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return ((h % 1000) / 1000 - 0.5) * 0.5;
}

export function boardChart(
  columns: BoardColumn[],
  entries: EntrySummary[],
  spreads: Map<string, Spread | null>,
  size: number,
  mine: string | null,
  theme: ChartTheme,
): ChartConfiguration<'line'> {
  const { groups, own, values } = machinePoints(columns, entries, size, mine);
  // Columns are narrow on a phone: smaller marks keep neighbouring columns apart.
  const radius = theme.presenter ? 6 : theme.narrow ? 3 : 4.5;
  const datasets = machineDatasets(groups, own, radius, theme);
  const { medians, quartiles } = classSpread(columns, spreads);
  datasets.push({ label: 'class median (bar: middle half)', data: medians, borderColor: theme.fg, backgroundColor: theme.fg, pointStyle: 'line', pointRadius: radius * (theme.narrow ? 2.2 : 3), borderWidth: 3, order: 1 });
  const intervals = datasets.map((_, i) => (i === datasets.length - 1 ? quartiles : []));

  return {
    type: 'line',
    data: { datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      showLine: false,
      scales: { x: stageAxis(columns, theme), y: valueAxis(theme, values, 'MB/s', '', true) },
      plugins: {
        // Legend marks in the points' own shapes: the shape is how the OS is told.
        legend: { ...legend(theme, 'bottom'), labels: { ...legend(theme, 'bottom').labels, usePointStyle: true } },
        tooltip: {
          ...tooltip(theme),
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => columns[Math.round((items[0]?.raw as Point | undefined)?.x ?? -1)]?.title ?? '',
            label(item: TooltipItem<'line'>) {
              const point = item.raw as Point;
              if (!point.entry) return `class median: ${formatMBps(point.y)}`;
              return `${point.entry.nickname}: ${formatSig(point.y)} MB/s (${point.entry.browser}, ${point.entry.os})`;
            },
          },
        },
        intervals: { data: intervals, color: theme.fg },
      },
    },
  };
}

type MachineGroup = { engine: EntrySummary['engine']; os: string; points: Point[] };

/** Every machine's point in each column it has a figure for, grouped by engine and OS; this machine's apart; and every figure, for the axis. */
function machinePoints(columns: BoardColumn[], entries: EntrySummary[], size: number, mine: string | null) {
  const groups = new Map<string, MachineGroup>();
  const own: Point[] = [];
  const values: number[] = [];
  // A machine that has posted nothing has no point, and no place in the legend.
  for (const entry of entries.filter((e) => !e.silent)) {
    const os = osFamily(entry.os);
    const key = `${entry.engine} · ${os}`;
    if (!groups.has(key)) groups.set(key, { engine: entry.engine, os, points: [] });
    columns.forEach((column, x) => {
      const y = throughputOf(entry, column.id, size);
      if (y === undefined) return;
      values.push(y);
      const point = { x: x + jitter(entry.id), y, entry };
      (entry.id === mine ? own : groups.get(key)!.points).push(point);
    });
  }
  return { groups, own, values };
}

/** A dataset per engine and OS, in the legend's order, then this machine's, drawn larger and on top. */
function machineDatasets(groups: Map<string, MachineGroup>, own: Point[], radius: number, theme: ChartTheme): ChartDataset<'line', Point[]>[] {
  const datasets: ChartDataset<'line', Point[]>[] = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([label, group]) => {
    const color = engineColor(group.engine, theme);
    return { label, data: group.points, borderColor: color, backgroundColor: color, pointStyle: OS_SHAPES[group.os] ?? 'circle', pointRadius: radius, order: 2 };
  });
  if (own.length > 0) {
    datasets.push({ label: 'this machine', data: own, borderColor: theme.fg, backgroundColor: theme.accent, pointStyle: 'circle', pointRadius: radius * 1.7, borderWidth: 3, order: 0 });
  }
  return datasets;
}

/** The class median of each column that has one, and its interquartile range. */
function classSpread(columns: BoardColumn[], spreads: Map<string, Spread | null>): { medians: Point[]; quartiles: Interval[] } {
  const medians: Point[] = [];
  const quartiles: Interval[] = [];
  columns.forEach((column, x) => {
    const s = spreads.get(column.id);
    if (!s) return;
    medians.push({ x, y: s.median });
    quartiles.push([s.q1, s.q3]);
  });
  return { medians, quartiles };
}

/** The x axis: a column per stage, labelled at its centre. */
function stageAxis(columns: BoardColumn[], theme: ChartTheme) {
  return {
    type: 'linear' as const,
    min: -0.5,
    max: columns.length - 0.5,
    // One tick per column, at its centre; the linear scale would otherwise place them from -0.5.
    afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
      axis.ticks = columns.map((_, value) => ({ value }));
    },
    ticks: {
      color: theme.fg,
      font: font(theme),
      autoSkip: false,
      // On a phone thirteen columns leave about 20 px each: "11" and "WASM" would touch, so the labels may tilt.
      maxRotation: theme.narrow ? 60 : 0,
      callback: (value: string | number) => (Number.isInteger(Number(value)) && columns[Number(value)] ? columnLabel(columns[Number(value)]) : ''),
    },
    title: { display: true, text: 'stage', color: theme.muted, font: font(theme) },
    grid: { display: false },
    border: { color: theme.border },
  };
}
