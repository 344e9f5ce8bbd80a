import { uploadData, uploadForTeam, type Queryable } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { extractArchive } from '@looplane/workspaces';
import { SeedFailure } from './fetch-repository';

/**
 * Writes an upload's files into a new work tree. The archive was checked when it arrived; it is
 * checked again as it is written (the same rules, and exactly the size and entry count recorded
 * then), so stored bytes that changed since cannot put anything else in the tree.
 */
export async function unpackUpload(pool: Queryable, teamId: string, uploadId: string, workTree: string): Promise<{ filename: string }> {
  const record = await uploadForTeam(pool, teamId, uploadId);
  const data = record ? await uploadData(pool, teamId, uploadId) : null;
  if (!record || !data) throw new SeedFailure(`upload ${uploadId} does not exist in this team (or expired unused)`);
  try {
    await extractArchive(data, workTree, { filename: record.filename, maxUnpackedBytes: record.unpackedBytes, maxFiles: record.files });
  } catch (error) {
    if (error instanceof AppError) throw new SeedFailure(`upload ${record.filename}: ${error.message}`);
    throw error;
  }
  return { filename: record.filename };
}
