import { escapeHtml } from '../../report/format';

/** Horizontal grouped bar charts as inline SVG (no scripts, no external assets). */
export interface BarSeries {
  name: string;
  color: string;
  values: number[];
}

export interface BarChartSpec {
  title: string;
  categories: string[];
  series: BarSeries[];
  format: (value: number) => string;
  /** Axis maximum; defaults to the largest value. */
  max?: number;
}

const LABEL_W = 170;
const BAR_W = 300;
const VALUE_W = 80;
const BAR_H = 14;
const GAP = 10;
const TOP = 28;

export function barChart(spec: BarChartSpec): string {
  const all = spec.series.flatMap((s) => s.values);
  const max = spec.max ?? Math.max(0, ...all);
  const groupH = spec.series.length * BAR_H + GAP;
  const legendH = spec.series.length > 1 ? 20 : 0;
  const height = TOP + spec.categories.length * groupH + legendH + 4;
  const width = LABEL_W + BAR_W + VALUE_W;
  const groups = spec.categories.map((category, ci) => categoryGroup(spec, category, ci, groupH, max));
  return [
    `<svg class="chart" role="img" aria-label="${escapeHtml(spec.title)}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<text x="0" y="16" class="chart-title">${escapeHtml(spec.title)}</text>`,
    ...groups,
    legend(spec.series, TOP + spec.categories.length * groupH + 12),
    '</svg>',
  ].join('\n');
}

function categoryGroup(spec: BarChartSpec, category: string, ci: number, groupH: number, max: number): string {
  const y0 = TOP + ci * groupH;
  const labelY = y0 + (spec.series.length * BAR_H) / 2 + 4;
  const bars = spec.series.map((s, si) => {
    const value = s.values[ci] ?? 0;
    const w = max > 0 ? Math.max(0, (value / max) * BAR_W) : 0;
    const y = y0 + si * BAR_H;
    const text = spec.format(value);
    return (
      `<rect class="bar" data-series="${escapeHtml(s.name)}" data-value="${value}" x="${LABEL_W}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H - 2}" fill="${s.color}">` +
      `<title>${escapeHtml(`${category} · ${s.name}: ${text}`)}</title></rect>` +
      `<text x="${(LABEL_W + w + 4).toFixed(1)}" y="${y + BAR_H - 4}" class="bar-value">${escapeHtml(text)}</text>`
    );
  });
  return `<g class="category"><text x="${LABEL_W - 6}" y="${labelY}" text-anchor="end" class="bar-label">${escapeHtml(truncate(category, 30))}</text>${bars.join('')}</g>`;
}

function legend(series: BarSeries[], y: number): string {
  if (series.length < 2) return '';
  const items = series.map(
    (s, i) =>
      `<rect x="${LABEL_W + i * 110}" y="${y - 9}" width="10" height="10" fill="${s.color}"/><text x="${LABEL_W + i * 110 + 14}" y="${y}" class="legend">${escapeHtml(s.name)}</text>`,
  );
  return `<g class="legend">${items.join('')}</g>`;
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
