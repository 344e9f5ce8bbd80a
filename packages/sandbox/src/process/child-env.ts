/**
 * The environment handed to a spawned child, typed as Node's `ProcessEnv`. A sandboxed process
 * gets exactly the variables given and nothing else (no NODE_ENV either); some hosts of this
 * package (Next's type augmentation) declare NODE_ENV as always present in `ProcessEnv`, which
 * would otherwise refuse a deliberately bare environment.
 */
export function childEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return { ...env } as NodeJS.ProcessEnv;
}
