/** The worker's entry points, by bundle name. */
export declare const ENTRIES: Record<'main' | 'node-process-main' | 'worker-with-test-tools', string>;
/** Bundles the worker into `outdir` (default apps/worker/dist); returns each entry's bundle path. */
export declare function buildWorker(options?: { outdir?: string }): Promise<Record<'main' | 'node-process-main' | 'worker-with-test-tools', string>>;
/** Every npm dependency of every workspace package, as esbuild externals (`name` and `name/*`). */
export declare function npmDependencies(): string[];
