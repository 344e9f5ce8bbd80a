import { z } from 'zod';

/** The upload as `POST /api/teams/{teamId}/uploads` answers 201 (the fields the dashboard shows). */
const uploadedSchema = z.object({
  id: z.string().min(1),
  filename: z.string(),
  format: z.string(),
  bytes: z.number(),
  files: z.number(),
  unpackedBytes: z.number(),
});
export type UploadedArchive = z.infer<typeof uploadedSchema>;

/** An RFC 9457 problem: its `detail` says what was wrong, written for people. */
const problemSchema = z.object({ detail: z.string().min(1) });

/** The archive kinds the server reads (it tells them apart by their bytes; the names only guide the picker). */
export const ARCHIVE_ACCEPT = '.tar,.tar.gz,.tgz,.zip';

/**
 * Reads the server's answer to an upload: the upload on 201, else an Error with the problem's
 * detail (or the status when the body is not a problem, such as a proxy's page).
 */
export function readUploadAnswer(status: number, body: string): UploadedArchive {
  let json: unknown = null;
  try {
    json = JSON.parse(body);
  } catch {
    // Not JSON: said below by the status.
  }
  if (status === 201) {
    const uploaded = uploadedSchema.safeParse(json);
    if (uploaded.success) return uploaded.data;
    throw new Error('The server answered the upload with something that is not an upload.');
  }
  const problem = problemSchema.safeParse(json);
  if (problem.success) throw new Error(problem.data.detail);
  throw new Error(`The upload failed (HTTP ${status}).`);
}

export interface UploadHandle {
  done: Promise<UploadedArchive>;
  abort: () => void;
}

/**
 * Sends `file` as the raw body of `POST /api/teams/{teamId}/uploads?filename=` with the session
 * cookie. XMLHttpRequest rather than fetch: only it reports the request body's progress.
 */
export function uploadArchive(teamId: string, file: File, onProgress: (sent: number, total: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedArchive>((resolve, reject) => {
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      try {
        resolve(readUploadAnswer(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new Error('Could not reach the server. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('The upload was cancelled.'));
  });
  xhr.open('POST', `/api/teams/${encodeURIComponent(teamId)}/uploads?filename=${encodeURIComponent(file.name)}`);
  xhr.withCredentials = true;
  xhr.setRequestHeader('content-type', 'application/octet-stream');
  xhr.send(file);
  return { done, abort: () => xhr.abort() };
}
