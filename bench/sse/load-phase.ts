// One closed-loop load phase of the HTTP benchmarks: N clients each send a request, wait for its
// answer and send the next, until the phase's end; what each client counts as accepted is summed.
import { request, type Agent } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One client of a phase: sends until `until`, pushing accepted latencies (when recording) and counting refusals by kind. */
export type LoadClient = (index: number, until: number, latencies: number[] | null, errors: Map<string, number>) => Promise<number>;

export interface PhaseResult {
  accepted: number;
  elapsed: number;
  /** Sorted, in milliseconds (empty when not recording). */
  latencies: number[];
  errors: Map<string, number>;
}

/** Runs `clients` copies of `client` for `seconds`; `record` keeps their latencies. */
export async function loadPhase(clients: number, seconds: number, record: boolean, client: LoadClient): Promise<PhaseResult> {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const start = performance.now();
  const until = start + seconds * 1000;
  const counts = await Promise.all(Array.from({ length: clients }, (_, i) => client(i, until, record ? latencies : null, errors)));
  const elapsed = (performance.now() - start) / 1000;
  return { accepted: counts.reduce((a, b) => a + b, 0), elapsed, latencies: latencies.sort((a, b) => a - b), errors };
}

/** POSTs a JSON body over `agent` (keep-alive) and reads the whole answer as text. */
export function postJson(url: string, agent: Agent, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
