'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
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
  const other = {
    id: 'other',
    name: `${rest.length} others`,
    costMicros: Array.from({ length: days }, (_, i) => rest.reduce((sum, s) => sum + (s.costMicros[i] ?? 0), 0)),
  };
  return [...series.slice(0, MAX_SERIES), other];
}

/** Compact dollars for the value axis: $0, $0.05, $12, $1.2k. */
function axisUsd(micros: number): string {
  const dollars = micros / 1_000_000;
  if (dollars >= 1000) return `$${(dollars / 1000).toFixed(1)}k`;
  return `$${dollars.toLocaleString('en-US', { maximumFractionDigits: dollars < 1 ? 2 : 0 })}`;
}

/**
 * Spend per day as stacked bars (Recharts), one colour per series: a day axis, a dollar axis, a
 * tooltip with each series' spend that day, and a legend. Colours of text, grid and tooltip come
 * from the app's tokens, so both themes read.
 */
export function SpendChart({ days, series, testId }: { days: string[]; series: ChartSeries[]; testId?: string }) {
  const shown = bucket(series, days.length);
  // One row per day, a key per series (by index: series ids are not safe as object paths).
  const rows = days.map((day, i) => Object.fromEntries([['day', day], ['none', 0], ...shown.map((s, k) => [`s${k}`, s.costMicros[i] ?? 0])]));
  return (
    <div data-testid={testId} className="h-64 w-full text-xs text-muted">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 720, height: 256 }}>
        <BarChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} title="Spend per day">
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} tick={{ fill: 'currentColor' }} stroke="var(--border-strong)" minTickGap={16} />
          <YAxis
            tickFormatter={axisUsd}
            domain={[0, (max: number) => (max > 0 ? max : 1_000_000)]}
            tick={{ fill: 'currentColor' }}
            stroke="var(--border-strong)"
            width={56}
          />
          <Tooltip
            formatter={(value) => formatUsd(Number(value))}
            cursor={{ fill: 'var(--surface-2)' }}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, color: 'var(--foreground)' }}
            labelStyle={{ color: 'var(--foreground)', fontWeight: 500 }}
          />
          <Legend iconType="square" iconSize={10} wrapperStyle={{ color: 'var(--foreground)' }} />
          {/* With nothing spent there is no series: an empty one keeps the axes drawn ($0 to $1). */}
          {shown.length === 0 ? <Bar dataKey="none" legendType="none" fill="transparent" isAnimationActive={false} /> : null}
          {shown.map((s, k) => (
            <Bar key={s.id} dataKey={`s${k}`} name={s.name} stackId="spend" fill={COLORS[Math.min(k, COLORS.length - 1)]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
