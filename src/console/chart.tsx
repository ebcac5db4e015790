/**
 * A time-series chart (uPlot) of one or more of the API's charts (`{"2026-01-01T00:00:00Z": 12}`),
 * with the same figures as a table for screen readers and keyboard users.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** One line of a chart: its name and its points, as the API's charts give them. */
export type Series = [label: string, points: Record<string, number> | null | undefined];

/** The lines' colours, in order (each above 4.5:1 on white). */
const COLORS = ['#1f5fbf', '#b8470b', '#2e7d32', '#8e24aa', '#c62828'];
const colorAt = (at: number) => COLORS[at % COLORS.length]!;

/** `total`: whether the first series' sum means something (a count, bytes), not for a rate. */
export function Chart({ title, series, unit, total: showTotal = true }: { title: string; series: Series[]; unit?: string; total?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const times = [...new Set(series.flatMap(([, points]) => Object.keys(points ?? {})))].sort();
  const columns = series.map(([, points]) => times.map((t) => points?.[t] ?? 0));
  // The first series' sum: the others are parts of it or of another kind (a rate).
  const total = (columns[0] ?? []).reduce((a, b) => a + b, 0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [times.map((t) => Date.parse(t) / 1000), ...columns];
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        series: [{}, ...series.map(([label], at) => ({ label, stroke: colorAt(at), width: 2, fill: `${colorAt(at)}22` }))],
        axes: [{}, { label: unit ?? '', size: 60 }],
        scales: { x: { time: true } },
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  });

  return (
    <figure class="chart">
      <figcaption>
        {title}{' '}
        {showTotal ? (
          <span class="hint">
            ({series[0]?.[0]}: {Number.isInteger(total) ? total : total.toFixed(2)} in all)
          </span>
        ) : null}
      </figcaption>
      <div ref={box} class="plot" aria-hidden="true" />
      <details>
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {series.map(([label]) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((t, row) => (
              <tr key={t}>
                <th scope="row">{t}</th>
                {columns.map((column, at) => (
                  <td key={series[at]![0]}>{column[row]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
