import { registerBuiltinTools } from './tools/builtin-tools';
import { runWorkerProcess } from './worker-process';

// The worker entry point (`tsx src/main.ts`): everything is in runWorkerProcess.
await runWorkerProcess({ registerTools: (registry, { sandbox }) => registerBuiltinTools(registry, sandbox) });
