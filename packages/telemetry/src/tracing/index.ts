// Tracing is optional and loaded only by dynamic import when an OTLP endpoint is configured; this
// flag lets a test prove that nothing here runs when tracing is off.
(globalThis as { __looplaneTracingLoaded?: boolean }).__looplaneTracingLoaded = true;

export { RunTracer, type RunTracerOptions } from './run-tracer';
export { runSpans, type Span, type TraceEvent } from './run-spans';
export { encodeSpans, exportSpans, tracesUrl } from './otlp-json';
