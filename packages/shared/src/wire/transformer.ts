import superjson, { type SuperJSONResult } from 'superjson';
import { escapeReservedKeys, restoreReservedKeys } from './reserved-keys';

/**
 * The tRPC transformer of the API and of every Looplane client (dashboard, CLI): superjson, with
 * the keys superjson refuses (`__proto__`, `constructor`, `prototype`) escaped on the way out and
 * restored on the way in (./reserved-keys.ts). Without it, one such key in a model's tool
 * arguments made every listing that returns the stored call answer 500 for good.
 */
export const wireTransformer = {
  serialize: (value: unknown): SuperJSONResult => superjson.serialize(escapeReservedKeys(value)),
  deserialize: <T = unknown>(payload: SuperJSONResult): T => restoreReservedKeys(superjson.deserialize<T>(payload)),
};
