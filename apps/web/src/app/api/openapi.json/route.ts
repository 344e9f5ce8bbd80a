import { buildOpenApiDocument } from '@looplane/api';
import packageJson from '../../../../package.json';

let document: string | null = null;

/**
 * The OpenAPI 3.1 document of `/api/v1`, built from the REST route table and its zod schemas
 * (once per process). Public: it describes the API, it grants nothing.
 */
export function GET(): Response {
  document ??= JSON.stringify(buildOpenApiDocument({ version: packageJson.version }));
  return new Response(document, { headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' } });
}
