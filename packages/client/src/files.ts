import type { LooplaneClient } from './client';
import { unwrap } from './client';
import type { components } from './generated/schema';

/**
 * Uploads an archive (.tar, .tar.gz or .zip) to seed a run's workspace: `POST /uploads` with the
 * raw bytes (`application/octet-stream`; the server tells the format apart by its bytes), named
 * `filename`. Resolves to the upload; start a run with `workspace: { archive: { uploadId: id } }`.
 */
export async function uploadArchive(client: LooplaneClient, data: Uint8Array, filename: string): Promise<components['schemas']['Upload']> {
  return unwrap(
    client.POST('/uploads', {
      params: { query: { filename } },
      // The generated type names the body as text; the bytes go as they are.
      body: data as never,
      bodySerializer: (body) => body as never,
      headers: { 'content-type': 'application/octet-stream' },
    }),
  );
}

/**
 * A session's changes as a `git format-patch` series (`GET /sessions/{sessionId}/patch`), from the
 * files its run was seeded with, or from its files at event `base`; empty when nothing changed.
 */
export async function downloadSessionPatch(client: LooplaneClient, sessionId: string, base?: number): Promise<string> {
  const text = await unwrap(
    client.GET('/sessions/{sessionId}/patch', {
      params: { path: { sessionId }, ...(base !== undefined ? { query: { base } } : {}) },
      parseAs: 'text',
    }),
  );
  return text ?? '';
}
