// Chart.js, registered with only the pieces our charts use. ChartCanvas.svelte imports
// this module dynamically, so the library is fetched the first time a chart is shown,
// not with the app.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
  type ChartType,
  type Plugin,
} from 'chart.js';

/** A 95% confidence interval per data point, [lo, hi] in the value axis' units; null when unknown. */
export type Interval = [number, number] | null;

declare module 'chart.js' {
  interface PluginOptionsByType<TType extends ChartType> {
    /** Error bars: intervals[datasetIndex][dataIndex]. */
    intervals?: { data: Interval[][]; color?: string };
    /** A horizontal (or, for indexAxis 'y', vertical) reference line, e.g. "1x blake3-wasm". */
    referenceLine?: { value: number; color?: string; label?: string; font?: string };
  }
}

/** Draws each point's confidence interval as a whisker with caps, over the datasets. */
const intervalsPlugin: Plugin = {
  id: 'intervals',
  afterDatasetsDraw(chart, _args, options: { data?: Interval[][]; color?: string }) {
    const all = options.data;
    if (!all) return;
    const horizontal = chart.options.indexAxis === 'y';
    const valueScale = horizontal ? chart.scales.x : chart.scales.y;
    if (!valueScale) return;
    const { ctx } = chart;
    ctx.save();
    ctx.lineWidth = 1.5;
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex);
      if (!chart.isDatasetVisible(datasetIndex)) return;
      const intervals = all[datasetIndex] ?? [];
      ctx.strokeStyle = options.color ?? String(dataset.borderColor ?? '#888');
      meta.data.forEach((element, index) => {
        const interval = intervals[index];
        if (!interval) return;
        const { x, y } = element.getProps(['x', 'y'], true) as { x: number; y: number };
        const a = valueScale.getPixelForValue(interval[0]);
        const b = valueScale.getPixelForValue(interval[1]);
        if (!Number.isFinite(a) || !Number.isFinite(b)) return;
        const cap = 4;
        ctx.beginPath();
        if (horizontal) {
          ctx.moveTo(a, y), ctx.lineTo(b, y);
          ctx.moveTo(a, y - cap), ctx.lineTo(a, y + cap);
          ctx.moveTo(b, y - cap), ctx.lineTo(b, y + cap);
        } else {
          ctx.moveTo(x, a), ctx.lineTo(x, b);
          ctx.moveTo(x - cap, a), ctx.lineTo(x + cap, a);
          ctx.moveTo(x - cap, b), ctx.lineTo(x + cap, b);
        }
        ctx.stroke();
      });
    });
    ctx.restore();
  },
};

const referenceLinePlugin: Plugin = {
  id: 'referenceLine',
  afterDatasetsDraw(chart, _args, options: { value?: number; color?: string; label?: string; font?: string }) {
    if (options.value === undefined) return;
    const horizontal = chart.options.indexAxis === 'y';
    const valueScale = horizontal ? chart.scales.x : chart.scales.y;
    if (!valueScale) return;
    const at = valueScale.getPixelForValue(options.value);
    const { left, right, top, bottom } = chart.chartArea;
    if (!Number.isFinite(at) || (horizontal ? at < left || at > right : at < top || at > bottom)) return;
    const { ctx } = chart;
    ctx.save();
    ctx.strokeStyle = options.color ?? '#888';
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    if (horizontal) ctx.moveTo(at, top), ctx.lineTo(at, bottom);
    else ctx.moveTo(left, at), ctx.lineTo(right, at);
    ctx.stroke();
    if (options.label) {
      ctx.setLineDash([]);
      ctx.fillStyle = options.color ?? '#888';
      ctx.font = options.font ?? '12px sans-serif';
      ctx.textBaseline = 'bottom';
      if (horizontal) {
        // Above the plot (the chart reserves room with layout padding), centred on the line.
        const half = ctx.measureText(options.label).width / 2;
        const x = Math.min(Math.max(at, half + 2), chart.width - half - 2);
        ctx.textAlign = 'center';
        ctx.fillText(options.label, x, top - 4);
      } else {
        ctx.textAlign = 'right';
        ctx.fillText(options.label, right - 4, at - 3);
      }
    }
    ctx.restore();
  },
};

Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  Tooltip,
  Legend,
  intervalsPlugin,
  referenceLinePlugin,
);

export { Chart };
