import { formatUsd } from './csv';

export interface ChartSeries {
  id: string;
  name: string;
  costMicros: number[];
}

// Distinct, theme-neutral fills; series past the palette share the last ("other").
const COLORS = ['#6366f1', '#10b981', '#f59e0b', '#ef4444', '#06b6d4', '#a855f7', '#84cc16', '#94a3b8'];
const MAX_SERIES = COLORS.length - 1;

/** The first series as they are, the rest summed as "other", so the legend stays readable. */
function bucket(series: ChartSeries[], days: number): ChartSeries[] {
  if (series.length <= MAX_SERIES + 1) return series;
  const rest = series.slice(MAX_SERIES);
  const other = { id: 'other', name: `${rest.length} others`, costMicros: Array.from({ length: days }, (_, i) => rest.reduce((sum, s) => sum + (s.costMicros[i] ?? 0), 0)) };
  return [...series.slice(0, MAX_SERIES), other];
}

/** Spend per day as stacked bars (SVG), one colour per series, with a legend. */
export function SpendChart({ days, series, testId }: { days: string[]; series: ChartSeries[]; testId?: string }) {
  const shown = bucket(series, days.length);
  const totals = days.map((_, i) => shown.reduce((sum, s) => sum + (s.costMicros[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = 720;
  const height = 180;
  const slot = width / days.length;
  const bar = Math.max(2, slot * 0.7);
  return (
    <div data-testid={testId}>
      {/* overflow-visible: the first day's label is centred on its bar and would be cut at the left edge. */}
      <svg viewBox={`0 0 ${width} ${height + 18}`} className="w-full overflow-visible" role="img" aria-label="Spend per day">
        {days.map((day, i) => {
          let y = height;
          return (
            <g key={day}>
              <title>{`${day}: ${formatUsd(totals[i] ?? 0)}`}</title>
              {shown.map((s, k) => {
                const h = ((s.costMicros[i] ?? 0) / max) * (height - 4);
                y -= h;
                return h > 0 ? <rect key={s.id} x={i * slot + (slot - bar) / 2} y={y} width={bar} height={h} fill={COLORS[Math.min(k, COLORS.length - 1)]} /> : null;
              })}
              {i % Math.ceil(days.length / 8) === 0 ? (
                <text x={i * slot + slot / 2} y={height + 14} textAnchor="middle" className="fill-current text-[10px] opacity-60">
                  {day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {shown.map((s, k) => (
          <li key={s.id} className="flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: COLORS[Math.min(k, COLORS.length - 1)] }} />
            {s.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
