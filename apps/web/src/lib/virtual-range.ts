/** The rows to render of a fixed-row-height list, plus the space above and below them. */
export interface VirtualRange {
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
}

/**
 * Which rows of `count` (each `rowHeight` px) are visible in a viewport scrolled to `scrollTop`,
 * with `overscan` extra rows each side so fast scrolling does not flash empty space.
 */
export function virtualRange(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 8): VirtualRange {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(viewport / rowHeight) + 1;
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.max(start, Math.min(count, first + visible + overscan));
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}
