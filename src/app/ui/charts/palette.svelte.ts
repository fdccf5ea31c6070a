// Chart colours and font sizes, read from the app's CSS custom properties so a chart
// follows the light/dark theme and presenter mode like the rest of the page. Canvas
// pixels do not inherit CSS, so the values are read once and re-read whenever the
// theme can have changed (an attribute on <html>, the system colour scheme, or the
// window crossing the narrow-screen width).
import { baselineInfo } from '../../../../steps/baseline-info.ts';

export interface ChartTheme {
  fg: string;
  muted: string;
  border: string;
  /** Grid lines: the border colour, half transparent, so data reads over the grid. */
  grid: string;
  surface: string;
  accent: string;
  good: string;
  bad: string;
  warn: string;
  mono: string;
  dark: boolean;
  presenter: boolean;
  /** A phone-width window: legends go under the chart and long axis labels wrap. */
  narrow: boolean;
  /** The reader's system asks for less motion (prefers-reduced-motion): charts appear drawn, not grown. */
  still: boolean;
  /** Base font size for ticks and legends, px: large enough to read from the back of a room in presenter mode. */
  fontSize: number;
}

const NARROW = '(max-width: 40rem)';
const STILL = '(prefers-reduced-motion: reduce)';

/** A custom property of app.css, which defines every one the charts read for each theme. */
function cssVar(style: CSSStyleDeclaration, name: string): string {
  return style.getPropertyValue(name).trim();
}

/** A CSS colour as 0-255 RGB, resolved by the canvas itself (it understands every CSS colour syntax). */
function toRgb(color: string): [number, number, number] | null {
  const probe = document.createElement('canvas').getContext('2d');
  if (!probe) return null;
  probe.fillStyle = '#000';
  probe.fillStyle = color;
  const resolved = String(probe.fillStyle);
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(resolved);
  if (hex) return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16)];
  const rgb = /rgba?\(\s*([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)/.exec(resolved);
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

/** Dark backgrounds have a relative luminance under 0.4. */
function isDarkColor(color: string): boolean {
  const rgb = toRgb(color);
  if (!rgb) return false;
  const [r, g, b] = rgb.map((part) => part / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4;
}

function withAlpha(color: string, alpha: number): string {
  const rgb = toRgb(color);
  return rgb ? `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${alpha})` : color;
}

function readTheme(): ChartTheme {
  const root = document.documentElement;
  const style = getComputedStyle(root);
  const bg = cssVar(style, '--bg');
  const presenter = root.hasAttribute('data-presenter') && root.getAttribute('data-presenter') !== 'false';
  const border = cssVar(style, '--border');
  return {
    grid: withAlpha(border, presenter ? 0.45 : 0.7),
    fg: cssVar(style, '--fg'),
    muted: cssVar(style, '--muted'),
    border,
    surface: cssVar(style, '--surface'),
    accent: cssVar(style, '--accent'),
    good: cssVar(style, '--good'),
    bad: cssVar(style, '--bad'),
    warn: cssVar(style, '--warn'),
    mono: cssVar(style, '--mono'),
    dark: isDarkColor(bg),
    presenter,
    narrow: matchMedia(NARROW).matches,
    still: matchMedia(STILL).matches,
    // In presenter mode a chart's labels follow the page's type, which grows with the screen.
    fontSize: presenter ? Math.round(parseFloat(style.fontSize) * 0.85) || 20 : 13,
  };
}

class ThemeWatcher {
  current = $state.raw<ChartTheme>(readTheme());

  constructor() {
    const refresh = () => {
      // Wait a frame: the theme's new stylesheet values apply after the attribute flips.
      requestAnimationFrame(() => (this.current = readTheme()));
    };
    new MutationObserver(refresh).observe(document.documentElement, { attributes: true });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', refresh);
    matchMedia(NARROW).addEventListener('change', refresh);
    matchMedia(STILL).addEventListener('change', refresh);
    // Presenter type follows the screen's size: a resized window (or a projector) changes it.
    addEventListener('resize', () => {
      if (this.current.presenter && readTheme().fontSize !== this.current.fontSize) refresh();
    });
  }
}

let watcher: ThemeWatcher | null = null;

/** The live chart theme; the watcher starts when a chart first asks for it. */
export function chartTheme(): ChartTheme {
  watcher ??= new ThemeWatcher();
  return watcher.current;
}

/**
 * Colours that stay apart for the common colour-vision deficiencies: Okabe and Ito's
 * palette for the stages at the top of the chart (6 to 11, which run close together, and
 * close to the baselines), Paul Tol's "muted" scheme for the slower ones. The two never
 * share a hue family next to each other, and neighbours alternate cool and warm (4 is
 * Tol's "bright" blue, not his purple, which beside 5's wine read as two magentas on a
 * phone). Each stage also has its own point style, and each baseline its own dash, so no
 * series depends on colour alone.
 */
export const STAGE_COLORS = ['#332288', '#CC6677', '#88CCEE', '#999933', '#4477AA', '#882255', '#009E73', '#56B4E9', '#E69F00', '#0072B2', '#D55E00', '#CC79A7'];
/** Point styles, in turn: neighbouring stages never share one. */
export const STAGE_POINTS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'] as const;

/** A colour mixed toward white: the dark Tol colours would vanish on a dark background. */
function lighten(hex: string, amount: number): string {
  const parts = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const mixed = parts.map((part) => Math.round(part + (255 - part) * amount));
  return `rgb(${mixed.join(', ')})`;
}

const forTheme = (hex: string, theme: ChartTheme) => (theme.dark ? lighten(hex, 0.3) : hex);

/** A stage's colour, by its place in the lesson (past the palette, the colours repeat with other point styles). */
export function stageColor(index: number, theme: ChartTheme): string {
  return forTheme(STAGE_COLORS[index % STAGE_COLORS.length], theme);
}

export function stagePoint(index: number): (typeof STAGE_POINTS)[number] {
  return STAGE_POINTS[index % STAGE_POINTS.length];
}

/** Baselines and peers: a dash pattern each (and a line for a point), colours apart from the stages near them. */
export function otherStyle(id: string, theme: ChartTheme): { color: string; dash: number[] } {
  const display = baselineInfo(id)?.display;
  if (display) {
    const color = display.color === 'text' ? theme.fg : display.color === 'muted' ? theme.muted : forTheme(display.color, theme);
    return { color, dash: display.dash };
  }
  switch (id) {
    // Native code (npm run bench -- --native): one hue outside the stages' sweep, told apart by the dash.
    case 'native-sse41':
      return { color: `hsl(285 55% ${theme.dark ? 72 : 42}%)`, dash: [1, 3] };
    case 'native-best':
      return { color: `hsl(285 55% ${theme.dark ? 72 : 42}%)`, dash: [6, 2] };
    case 'native-threads':
      return { color: `hsl(285 55% ${theme.dark ? 72 : 42}%)`, dash: [14, 3] };
    default:
      return { color: forTheme('#888888', theme), dash: [5, 5] };
  }
}

/**
 * A colour per JavaScript engine, the same in every chart and on the class board: V8
 * blue, SpiderMonkey orange, JavaScriptCore green (hues far apart, and apart in lightness
 * too, so they stay distinct for the common colour-vision deficiencies), anything else grey.
 */
export function engineColor(jsEngine: string, theme: ChartTheme): string {
  const light = theme.dark ? 66 : 42;
  switch (jsEngine) {
    case 'V8':
      return `hsl(215 75% ${light}%)`;
    case 'SpiderMonkey':
      return `hsl(28 90% ${light + 6}%)`;
    case 'JavaScriptCore':
      return `hsl(150 60% ${light - 8}%)`;
    default:
      return `hsl(270 10% ${light}%)`;
  }
}
