import type { Span } from './run-spans';

const nanos = (date: Date) => `${BigInt(date.getTime()) * 1_000_000n}`;

function attribute(key: string, value: string | number | boolean) {
  if (typeof value === 'boolean') return { key, value: { boolValue: value } };
  if (typeof value === 'number') return { key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } };
  return { key, value: { stringValue: value } };
}

/** An OTLP/HTTP JSON `ExportTraceServiceRequest` for `spans` of one service. */
export function encodeSpans(spans: readonly Span[], service: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [attribute('service.name', service)] },
        scopeSpans: [
          {
            scope: { name: 'looplane', version: '0.1.0' },
            spans: spans.map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: 1, // SPAN_KIND_INTERNAL
              startTimeUnixNano: nanos(span.start),
              endTimeUnixNano: nanos(span.end),
              attributes: Object.entries(span.attributes).map(([key, value]) => attribute(key, value)),
              status: { code: span.error ? 2 : 1 },
            })),
          },
        ],
      },
    ],
  };
}

/** The traces URL: LOOPLANE_OTEL_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT is a base; `/v1/traces` is appended unless present. */
export function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}

/** POSTs spans to an OTLP/HTTP collector (JSON encoding); throws on a non-2xx answer. */
export async function exportSpans(endpoint: string, spans: readonly Span[], service: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(tracesUrl(endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(encodeSpans(spans, service)),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`the OTLP collector answered ${response.status}`);
}
