import { registerBuiltinTools } from './tools/builtin-tools';
import { runWorkerProcess } from './worker-process';

// The worker entry point (bundled by build.mjs into dist/main.mjs, or run from source with tsx):
// everything is in runWorkerProcess.
await runWorkerProcess({ registerTools: (registry, { sandbox }) => registerBuiltinTools(registry, sandbox) });
