// The results charts for readers who cannot tell every colour apart: the stages that run
// close together (and the yardstick beside them) keep colours apart under simulated
// protanopia, deuteranopia and tritanopia, neighbouring stages never share a point
// style, and a run of one size is drawn as bars, not as points stacked on one axis; for a
// reader who asks for less motion, charts appear drawn rather than grow in.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { STAGE_POINTS, stageColor, stagePoint, type ChartTheme } from '../src/app/ui/charts/palette.svelte.ts';
import { throughputChart } from '../src/app/ui/charts/configs.ts';
import { buildModel } from '../src/core/results/analysis/model.ts';
import { fullResults } from './fixtures/full-results.ts';

const LIGHT: ChartTheme = {
  fg: '#1b1b1f', muted: '#6b6b76', border: '#d0d0d7', grid: '#d0d0d7', surface: '#ffffff', accent: '#2f6fdb', good: '#1f8a4c',
  bad: '#c2362b', warn: '#9a5b00', mono: 'monospace', dark: false, presenter: false, narrow: false, still: false, fontSize: 13,
};

// Machado, Oliveira and Fernandes (2009), severity 1, applied to linear RGB.
const SIMULATIONS: Record<string, number[][]> = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
  none: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
};

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
function rgb(color: string): number[] {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16) / 255);
  return /rgb\((\d+), (\d+), (\d+)\)/.exec(color)!.slice(1).map((part) => Number(part) / 255);
}
/** CIE L*a*b* of a colour as a reader with the given vision sees it. */
function lab(color: string, vision: number[][]): number[] {
  const linear = rgb(color).map(toLinear);
  const seen = vision.map((row) => Math.min(1, Math.max(0, row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2])));
  const [x, y, z] = [
    (0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2]) / 0.95047,
    0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2],
    (0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2]) / 1.08883,
  ];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const deltaE = (a: string, b: string, vision: number[][]) => Math.hypot(...lab(a, vision).map((v, i) => v - lab(b, vision)[i]));

describe('the stage palette', () => {
  it('gives every stage its own colour, and neighbours their own point styles', () => {
    const colors = STAGES.map((stage) => stageColor(stage.index, LIGHT));
    expect(new Set(colors).size).toBe(STAGES.length);
    for (const stage of STAGES.slice(1)) expect(stagePoint(stage.index)).not.toBe(stagePoint(stage.index - 1));
    expect(STAGE_POINTS.length).toBeGreaterThan(2);
  });

  for (const [name, vision] of Object.entries(SIMULATIONS)) {
    it(`keeps neighbouring stages, the fast stages and blake3-wasm apart with ${name}`, () => {
      const color = (index: number) => stageColor(index, LIGHT);
      // Neighbours in the lesson, and the fast stages (6 and on), which overlap on the chart, among themselves and against blake3-wasm (the page's text colour).
      const pairs: [string, string, string][] = STAGES.slice(1).map((s) => [`${s.index - 1}/${s.index}`, color(s.index - 1), color(s.index)]);
      const fast = STAGES.filter((s) => s.index >= 6);
      for (const a of fast) {
        pairs.push([`${a.index}/blake3-wasm`, color(a.index), LIGHT.fg]);
        for (const b of fast) if (b.index > a.index) pairs.push([`${a.index}/${b.index}`, color(a.index), color(b.index)]);
      }
      const close = pairs.filter(([, a, b]) => deltaE(a, b, vision) < 12).map(([pair, a, b]) => `${pair} ΔE ${deltaE(a, b, vision).toFixed(1)}`);
      expect(close).toEqual([]);
    });
  }

  it('gives neighbouring stages colours a reader tells apart at a glance, on a phone too', () => {
    // ΔE 12 keeps colours apart; neighbours, which a step's chart always shows together, get far more:
    // stages 4 and 5 were #AA4499 and #882255 (ΔE about 20), two magentas.
    const vision = SIMULATIONS.none;
    const close = STAGES.slice(1)
      .map((s) => [s.index, deltaE(stageColor(s.index - 1, LIGHT), stageColor(s.index, LIGHT), vision)] as const)
      .filter(([, distance]) => distance < 30)
      .map(([index, distance]) => `${index - 1}/${index} ΔE ${distance.toFixed(1)}`);
    expect(close).toEqual([]);
  });
});

describe('the throughput chart', () => {
  it('draws one size as a bar per contestant, and several sizes as lines', () => {
    const results = fullResults();
    const oneSize = { ...results, runs: results.runs.filter((run) => run.size === 1024), config: { ...results.config, sizes: [1024] } };
    const bars = throughputChart(buildModel(oneSize), LIGHT);
    expect(bars.type).toBe('bar');
    expect(bars.data.labels).toHaveLength(buildModel(oneSize).contestants.length);
    expect(new Set(bars.data.datasets[0].backgroundColor as unknown as string[]).size).toBe(bars.data.labels!.length);

    const lines = throughputChart(buildModel(results), LIGHT);
    expect(lines.type).toBe('line');
    const styles = lines.data.datasets.map((d) => (d as { pointStyle: string }).pointStyle);
    expect(styles.filter((s) => s === 'line').length).toBe(buildModel(results).contestants.filter((c) => c.kind !== 'stage').length);
  });

  it('grows in over 200 ms, but appears drawn when the reader asks for less motion', () => {
    const results = fullResults();
    expect(throughputChart(buildModel(results), LIGHT).options?.animation).toEqual({ duration: 200 });
    expect(throughputChart(buildModel(results), { ...LIGHT, still: true }).options?.animation).toBe(false);
    const oneSize = { ...results, runs: results.runs.filter((run) => run.size === 1024), config: { ...results.config, sizes: [1024] } };
    expect(throughputChart(buildModel(oneSize), { ...LIGHT, still: true }).options?.animation).toBe(false);
  });
});
