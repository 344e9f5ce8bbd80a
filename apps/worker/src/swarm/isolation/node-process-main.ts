import { registerBuiltinTools } from '../../tools/builtin-tools';
import { runWorkerProcess } from '../../worker-process';

// A `process` node's dedicated worker: the ordinary worker process on the node's own queue prefix
// (given in its environment). It stops when the worker that started it goes away.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
await runWorkerProcess({ registerTools: (registry, { sandbox }) => registerBuiltinTools(registry, sandbox) });
