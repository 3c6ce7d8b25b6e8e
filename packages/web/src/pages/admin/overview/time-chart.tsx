import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { useTheme } from '../../../theme/theme.ts';
import { formatDay } from '../parts/format.ts';

export interface ChartSeries {
  label: string;
  /** One per day; null where the day has no value (a rate of a day without payments: a gap, not a zero). */
  values: readonly (number | null)[];
  /** A custom property of the theme (`--chart-1`), read when the chart is drawn so it follows light and dark. */
  colorVar: string;
}

const CHART_HEIGHT = 220;
/** The y axis's steps, in multiples of its smallest step: 1, 2, 5, 10, 20, 50, ... */
const STEPS = Array.from({ length: 30 }, (_, index) => (index % 3 === 2 ? 5 : (index % 3) + 1) * 10 ** Math.floor(index / 3));

const AXIS_FONT = '12px system-ui, sans-serif';
let measuring: CanvasRenderingContext2D | null = null;

/**
 * The y axis's width: its widest label, the gap beside it, and at least 56 px (a fixed 56 px cut "CHF 100M" to
 * "HF 100M"). Measured on a canvas of its own: uPlot keeps its own canvas's font set between draws.
 */
function yAxisWidth(labels: readonly string[] | null): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  const context = measuring;
  if (context === null) return 56;
  context.font = AXIS_FONT;
  // uPlot asks before it has the labels (null) too.
  const widest = Math.max(0, ...(labels ?? []).map((label) => context.measureText(label).width));
  return Math.max(56, Math.ceil(widest) + 16);
}

function formatOrDash(format: (value: number) => string, value: number | null | undefined): string {
  return value === null || value === undefined ? adminMessages.dash : format(value);
}

/** A custom property's value on <html>, where the theme sets them. */
function themeColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'gray';
}

/**
 * A per-day chart drawn by uPlot on a canvas (it sizes its elements through the CSSOM, which the CSP allows; nothing
 * inline). The canvas is hidden from assistive technology: the same numbers are in the table after it.
 */
export function TimeChart({
  title,
  days,
  series,
  format,
  axisFormat = format,
  step = 1,
  max,
  summary,
  kind = 'line',
}: {
  title: string;
  days: readonly string[];
  series: readonly ChartSeries[];
  format: (value: number) => string;
  /** The y axis's labels, shorter than the values' (€3K). */
  axisFormat?: (value: number) => string;
  /** The y axis's smallest step in the values' units (one payment; one major unit of money): labels never repeat. */
  step?: number;
  /** A fixed top of the y axis (a rate's 100 %); otherwise the data's. */
  max?: number;
  /** What a screen reader hears of the whole chart; otherwise each series' total. */
  summary?: string;
  kind?: 'line' | 'bars';
}) {
  const holder = useRef<HTMLDivElement>(null);
  const theme = useTheme();

  // biome-ignore lint/correctness/useExhaustiveDependencies: theme is a dependency on purpose: the chart reads the new theme's colours from CSS
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const text = themeColor('--shop-muted');
    const grid = themeColor('--shop-border');
    const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.6, 24], gap: 2 });
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { show: false }, font: AXIS_FONT };
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: CHART_HEIGHT,
      // The days are UTC days: label them as such whatever the browser's zone.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: series.length > 1, live: false },
      cursor: { drag: { x: false, y: false }, points: { show: kind === 'line' } },
      // With no data the axis runs from 0 to one step: two labels, not the same one repeated.
      scales: {
        x: { time: true },
        y: { range: (_u, _min, top) => [0, max ?? (top > 0 ? Math.max(top * 1.1, step) : step)] },
      },
      axes: [
        {
          ...axis,
          values: (_u, splits) => splits.map((split) => formatDay(new Date(split * 1000).toISOString()).replace(/, \d{4}$/, '')),
        },
        {
          ...axis,
          size: (_u, labels) => yAxisWidth(labels),
          incrs: STEPS.map((multiple) => multiple * step),
          values: (_u, splits) => splits.map((split) => axisFormat(split)),
        },
      ],
      series: [
        {},
        ...series.map((entry) => {
          const color = themeColor(entry.colorVar);
          return kind === 'bars' && bars !== undefined
            ? {
                label: entry.label,
                stroke: color,
                fill: color,
                width: 0,
                paths: bars,
                points: { show: false },
                value: (_u: uPlot, value: number | null) => (value === null ? '' : format(value)),
              }
            : {
                label: entry.label,
                stroke: color,
                width: 2,
                fill: `${color}22`,
                // A series with gaps (days without a value) marks its days, or a day between two gaps would not show.
                points: { show: entry.values.includes(null), size: 6, fill: color },
                value: (_u: uPlot, value: number | null) => (value === null ? '' : format(value)),
              };
        }),
      ],
    };
    const chart = new uPlot(options, [xs, ...series.map((entry) => [...entry.values])], element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 240), height: CHART_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, format, axisFormat, step, max, kind, theme]);

  const totals = series.map((entry) => format(entry.values.reduce<number>((sum, value) => sum + (value ?? 0), 0)));
  return (
    <figure className="chart card">
      <figcaption className="chart-title">{title}</figcaption>
      <div ref={holder} className="chart-canvas" aria-hidden="true" />
      {/* A box hides the numbers, not the table itself: a table is never narrower than its cells, whatever its width
          says, so a hidden table widened the page (to 344 px on a 320 px phone, 902 with long decline reasons). */}
      <div className="visually-hidden">
        <p>{summary ?? adminMessages.chartSummary(title, totals.join(', '))}</p>
        <table>
          <caption>{adminMessages.chartTable(title)}</caption>
          <thead>
            <tr>
              <th scope="col">{adminMessages.day}</th>
              {series.map((entry) => (
                <th scope="col" key={entry.label}>
                  {entry.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day}>
                <th scope="row">{formatDay(day)}</th>
                {series.map((entry) => (
                  <td key={entry.label}>{formatOrDash(format, entry.values[index])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
