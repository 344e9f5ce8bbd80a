// The overview page's reads: live work, recent outcomes, spend by day, workers and the busiest agents and graphs.
export { activeRunCounts, finishedRunCounts, type ActiveRunCount, type FinishedRunCount } from './run-counts.repository';
export { dailyModelSpend, type DailySpend } from './daily-spend.repository';
export { liveWorkerRows, type LiveWorkerRow } from './live-workers.repository';
export { busiestRows, busySpend, type BusyKind, type BusyRow } from './busiest.repository';
