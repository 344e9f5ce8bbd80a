/** Where the REST API is mounted; paths in the route table are below it. */
export const REST_BASE = '/api/v1';

/** The query string of a parsed query (arrays as repeated keys), without the leading `?`. */
export function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search.toString();
}

/** `Link: <…?cursor=…>; rel="next"` for a cursor-paginated list, when there is a next page. */
export function nextPageLink(path: string, query: Record<string, unknown>, nextCursor: string | null): Record<string, string> {
  if (!nextCursor) return {};
  return { link: `<${REST_BASE}${path}?${queryString({ ...query, cursor: nextCursor })}>; rel="next"` };
}
