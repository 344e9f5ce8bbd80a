import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../root';
import type { Meta } from '../trpc';
import { buildOpenApiDocument } from './openapi';
import { REST_TAGS } from './rest-route';
import { restRoutes } from './routes';

const document = buildOpenApiDocument();
type Operation = {
  operationId?: string;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  requestBody?: unknown;
  responses?: Record<string, unknown>;
};
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  (['get', 'post', 'patch', 'delete'] as const).flatMap((method) => {
    const operation = (item as Record<string, Operation | undefined>)[method];
    return operation ? [{ path, method: method.toUpperCase(), operation }] : [];
  }),
);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    // validate() dereferences in place: give it a copy.
    // zod-openapi's types and the validator's disagree on a server variable's default type only.
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    const errors = result.valid ? [] : result.errors;
    expect(errors, JSON.stringify(errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route of the table, and nothing else, under unique camelCase operationIds', () => {
    expect(operations.map((o) => `${o.method} ${o.path} ${o.operation.operationId}`).sort()).toEqual(
      restRoutes.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort(),
    );
    const ids = restRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it('has the operations the CLI and the brief of the API name', () => {
    const ids = new Set(restRoutes.map((r) => r.operationId));
    for (const id of [
      'getMe',
      'createRun',
      'listRuns',
      'getRun',
      'cancelRun',
      'sendRunMessage',
      'listRunEvents',
      'listApprovals',
      'getApproval',
      'decideApproval',
      'listAgents',
      'getAgent',
      'listGraphs',
      'runGraph',
      'forkSession',
      'resumeSession',
      'getSessionFiles',
      'exportAudit',
      'listTokens',
      'createToken',
      'revokeToken',
      'listMcpServers',
      'addMcpServer',
      'refreshMcpServer',
      'removeMcpServer',
      'createUpload',
      'getUpload',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  it('names every path parameter of a template, required, and only those', () => {
    for (const { path, operation } of operations) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), path).toEqual(inTemplate.sort());
      for (const parameter of declared) expect(parameter.required, `${path} ${parameter.name}`).toBe(true);
    }
  });

  it('gives every operation its success response, problem+json errors and the bearer scheme', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of restRoutes) {
      const { operation } = operations.find((o) => o.operation.operationId === route.operationId)!;
      const responses = operation.responses ?? {};
      expect(Object.keys(responses), route.operationId).toContain(String(route.status));
      for (const status of ['400', '401', '403', ...route.problems.map(String)]) {
        expect(responses[status], `${route.operationId} ${status}`).toMatchObject({
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        });
      }
      if (route.body) expect(operation.requestBody, route.operationId).toMatchObject({ required: true, content: { 'application/json': {} } });
      if (route.file) {
        expect(operation.requestBody, route.operationId).toMatchObject({
          required: true,
          content: { 'multipart/form-data': { schema: { required: ['file'] } }, 'application/gzip': {}, 'application/zip': {}, 'application/octet-stream': {} },
        });
        for (const status of ['413', '415']) expect(responses[status], `${route.operationId} ${status}`).toBeDefined();
      }
      if (route.idempotent)
        expect(
          operation.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
          route.operationId,
        ).toBe(true);
    }
  });
});

describe('the route table', () => {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } } | undefined>;

  it('runs a real procedure per route and requires that procedure’s role', () => {
    for (const route of restRoutes) {
      const access = procedures[route.procedure]?._def.meta?.access;
      expect(access, route.procedure).toBeDefined();
      expect(access!.kind === 'team' ? access!.role : 'viewer', route.operationId).toBe(route.role);
      expect(Object.keys(REST_TAGS)).toContain(route.tag);
    }
  });

  it('has an example request per route that its own schemas accept', () => {
    for (const route of restRoutes) {
      if (route.params) expect(route.params.safeParse(route.example.params).success, `${route.operationId} params`).toBe(true);
      else expect(route.example.params, route.operationId).toBeUndefined();
      if (route.query && route.example.query !== undefined) expect(route.query.safeParse(route.example.query).success, `${route.operationId} query`).toBe(true);
      if (route.body) expect(route.body.safeParse(route.example.body).success, `${route.operationId} body`).toBe(true);
      else expect(route.example.body, route.operationId).toBeUndefined();
    }
  });

  it('refuses unknown fields in every body and query (strict schemas)', () => {
    for (const route of restRoutes) {
      if (route.body) expect(route.body.safeParse({ ...(route.example.body as object), surplus: 1 }).success, route.operationId).toBe(false);
      if (route.query) expect(route.query.safeParse({ surplus: '1' }).success, route.operationId).toBe(false);
    }
  });
});
