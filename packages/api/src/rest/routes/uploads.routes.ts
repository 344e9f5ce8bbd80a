import { uploadFilenameSchema } from '../../routers/uploads.schema';
import { defineRoute, type RestRoute } from '../rest-route';
import { createUploadQuery, upload, uploadIdParams } from '../schemas/uploads.schemas';

const EXAMPLE_ID = 'cmexampleid0000000000000';

/** A name the body came with, when it is one the API shows (else the default `upload.<format>`). */
function shownName(name: string | undefined): string | undefined {
  return name !== undefined && uploadFilenameSchema.safeParse(name).success ? name : undefined;
}

export const uploadRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/uploads',
    operationId: 'createUpload',
    summary: 'Upload an archive to seed runs',
    description:
      'Stores a .tar, .tar.gz/.tgz or .zip archive whose files a run’s workspace can start from (`runs.create` with `workspace: { archive: { uploadId } }`). ' +
      'It is read whole first and refused (400, naming the first bad entry) for absolute or `..` paths, links that leave it, devices, FIFOs and sparse files, ' +
      'duplicate paths, more than 100,000 entries, or unpacking past ten times the upload limit (at most 1 GiB). ' +
      'It expires after 24 hours unless a run uses it.',
    tag: 'uploads',
    procedure: 'uploads.create',
    query: createUploadQuery,
    file: true,
    response: upload,
    status: 201,
    responseDescription: 'The archive was checked and stored',
    example: { query: { filename: 'project.tar.gz' } },
    handle: ({ caller, teamId, query, file }) => caller.uploads.create({ teamId, data: file!.data, filename: query.filename ?? shownName(file!.filename) }),
  }),

  defineRoute({
    method: 'GET',
    path: '/uploads/{uploadId}',
    operationId: 'getUpload',
    summary: 'Get an upload',
    description: 'An uploaded archive’s metadata (not its bytes): what it holds, its SHA-256, and until when it waits for a run.',
    tag: 'uploads',
    procedure: 'uploads.get',
    params: uploadIdParams,
    response: upload,
    responseDescription: 'The upload',
    problems: [404],
    example: { params: { uploadId: EXAMPLE_ID } },
    handle: ({ caller, teamId, params }) => caller.uploads.get({ teamId, uploadId: params.uploadId }),
  }),
];
