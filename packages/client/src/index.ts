// @looplane/client: the typed client of the Looplane REST API, generated from its OpenAPI
// document. It depends on nothing of the server: the types come from the committed document.
import type { components } from './generated/schema';

export { API_BASE_PATH, createLooplaneClient, unwrap, type LooplaneClient, type LooplaneClientOptions } from './client';
export { downloadSessionPatch, uploadArchive } from './files';
export { ConnectionError, isProblem, ProblemError, type Problem } from './problem';
export type { components, operations, paths } from './generated/schema';

/** A named schema of the document, e.g. `Schema<'Run'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
