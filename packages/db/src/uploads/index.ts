// Uploaded archives that seed a run's workspace: stored by the API, claimed by runs.create, read
// by the worker, swept when they expire unused.
export {
  insertUpload,
  uploadForTeam,
  claimUploadForRun,
  uploadData,
  deleteExpiredUploads,
  type UploadRecord,
  type NewUpload,
} from './uploads.repository';
