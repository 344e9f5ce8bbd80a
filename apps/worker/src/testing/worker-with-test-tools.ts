import { registerBuiltinTools } from '../tools/builtin-tools';
import { runWorkerProcess } from '../worker-process';
import { registerTestTools } from './test-tools';

// The real worker process plus the test tools: what the fault tests and the benchmarks spawn and
// kill. Identical to main.ts but for the `registerTestTools` call.
await runWorkerProcess({
  registerTools: (registry, { pool, sandbox }) => registerTestTools(registerBuiltinTools(registry, sandbox), pool),
});
