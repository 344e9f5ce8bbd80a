/** A worker counts as live while it refreshes its probe row (every 30 s) and has not stopped. */
export const LIVE_WORKER_WINDOW_MS = 90_000;
