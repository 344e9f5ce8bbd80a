export { Registry } from 'prom-client';
export { registerClusterMetrics, type ClusterMetricsSource } from './metrics/cluster-metrics';
export { ModelMetrics } from './metrics/model-metrics';
export { metricsResponse, metricsTokenMatches } from './metrics/metrics-auth';
