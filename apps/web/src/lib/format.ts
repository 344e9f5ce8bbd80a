const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "Mar 4, 2026" — for client components only (uses the browser's locale). */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

/** Full date and time, for `title` tooltips. */
export function formatDateTime(date: Date): string {
  return dateTimeFormat.format(date);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", or the date when older than a month. */
export function formatRelative(date: Date, now = Date.now()): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  if (seconds < 0) return formatDate(date);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days <= 30) return `${days} d ago`;
  return formatDate(date);
}
