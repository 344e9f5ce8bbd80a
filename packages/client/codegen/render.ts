import { buildOpenApiDocument } from '@looplane/api';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

/** The command that rewrites the generated files; the drift test names it when they are stale. */
export const GENERATE_COMMAND = 'npm run generate -w @looplane/client';

/** The committed outputs of the generator, relative to packages/client. */
export const GENERATED_FILES = ['openapi.json', 'src/generated/schema.ts'] as const;
export type GeneratedFile = (typeof GENERATED_FILES)[number];

const SCHEMA_BANNER = `/**
 * GENERATED FILE: do not edit. Run \`${GENERATE_COMMAND}\` after changing the REST API.
 *
 * The types of the Looplane REST API (\`/api/v1\`), written by openapi-typescript from the OpenAPI
 * document that \`buildOpenApiDocument()\` of @looplane/api builds from the route table's zod
 * schemas (committed next to this package as openapi.json). The drift test fails when this file
 * or openapi.json no longer matches what the API documents.
 */
`;

const JSON_VALUE_PATH = '#/components/schemas/JsonValue';

/**
 * `JsonValue` (free-form JSON) refers to itself. As a member of the `components` interface
 * TypeScript refuses such a type (TS2502), so the component is written as a reference to a
 * recursive type alias, which TypeScript allows, of the same shape (openapi.ts's `z.json()`).
 */
const JSON_VALUE_ALIAS = `
/** Any JSON value: the document's recursive \`JsonValue\` schema. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
`;

/**
 * What the generator writes, in memory: the OpenAPI document as the server serves it (at the
 * package's default version, so the file changes only with the API itself) and the TypeScript
 * types openapi-typescript makes of it. Deterministic: the same API gives the same bytes.
 */
export async function renderGeneratedFiles(): Promise<Record<GeneratedFile, string>> {
  const document = buildOpenApiDocument();
  const json = `${JSON.stringify(document, null, 2)}\n`;
  // The JSON text, not the object: openapi-typescript's bundler may change what it is given.
  const nodes = await openapiTS(json, {
    // A request field with a default may be left out (the server fills it in), so it is optional.
    defaultNonNullable: false,
    transform: (_schema, { path }) => (path === JSON_VALUE_PATH ? ts.factory.createTypeReferenceNode('JsonValue') : undefined),
  });
  const alias = document.components?.schemas?.JsonValue ? JSON_VALUE_ALIAS : '';
  return { 'openapi.json': json, 'src/generated/schema.ts': SCHEMA_BANNER + astToString(nodes) + alias };
}
