import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The parts of the committed OpenAPI document the contract test reads. */
export interface OpenApi {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, DocumentResponse> }>>;
  components: { schemas: Record<string, object> };
}
interface DocumentResponse {
  content?: Record<string, { schema: object }>;
}

/** One documented operation. */
export interface DocumentOperation {
  operationId: string;
  method: string;
  /** As the document writes it, below `/api/v1`: `/runs/{runId}`. */
  path: string;
  responses: Record<string, DocumentResponse>;
  /** Matches a concrete path below `/api/v1`. */
  pattern: RegExp;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The committed document (packages/client/openapi.json; the drift test keeps it current). */
export function loadDocument(): OpenApi {
  return JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as OpenApi;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApi): DocumentOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      operationId: item[m]!.operationId,
      method: m.toUpperCase(),
      path,
      responses: item[m]!.responses,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );
}

/** The operation a request went to, by method and path (below `/api/v1`); literal segments win over parameters. */
export function operationFor(operations: DocumentOperation[], method: string, path: string): DocumentOperation | null {
  const matches = operations.filter((o) => o.method === method && o.pattern.test(path));
  return matches.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0] ?? null;
}

const COMPONENTS_ID = 'urn:looplane:openapi-components';

/**
 * Checks bodies against the document's own schemas with a JSON Schema 2020-12 validator (the
 * dialect of OpenAPI 3.1), independent of the zod schemas the document was made from. Strict:
 * a keyword ajv does not know fails compilation, except OpenAPI's own annotations.
 */
export function createResponseChecker(document: OpenApi) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  // The document's references (`#/components/schemas/X`) point into one schema of all components.
  const relocate = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`)) as object;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: relocate(document.components.schemas) });
  const compiled = new Map<string, ValidateFunction>();

  /** What is wrong with a response of `operation` (empty: it is as documented). */
  return (operation: DocumentOperation, status: number, contentType: string | null, body: unknown): string[] => {
    const response = operation.responses[String(status)];
    if (!response) return [`${operation.operationId}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const type = (contentType ?? '').split(';')[0]!.trim();
    const media = response.content?.[type];
    if (!media)
      return [
        `${operation.operationId} ${status}: content type ${type || 'none'} is not documented (documented: ${Object.keys(response.content ?? {}).join(', ') || 'no body'})`,
      ];
    const key = `${operation.operationId} ${status} ${type}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(relocate(media.schema));
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${key}: ${e.instancePath || '(body)'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
  };
}
