import { createRouter, teamProcedure } from '../trpc';
import { createUpload, getUpload } from '../services/uploads.service';
import { createUploadInput, getUploadInput } from './uploads.schema';

/** Archives that seed a run's workspace. Uploading needs the role that starts runs (operator). */
export const uploadsRouter = createRouter({
  create: teamProcedure('operator')
    .input(createUploadInput)
    .mutation(({ ctx, input }) =>
      createUpload(
        ctx.db,
        { teamId: ctx.teamId, filename: input.filename, data: input.data },
        { actor: ctx.actor, tokenId: ctx.principal.kind === 'token' ? ctx.principal.tokenId : null, ip: ctx.ip },
        ctx.uploadLimits,
      ),
    ),

  get: teamProcedure('viewer')
    .input(getUploadInput)
    .query(({ ctx, input }) => getUpload(ctx.db, ctx.teamId, input.uploadId)),
});
