// The worker's entry into the API: what its scheduler needs to turn a tick into a run through the
// same services as runs.create, without loading the routers, tRPC or the HTTP handlers.
export { createDispatch, type Dispatch } from './dispatch';
export { fireDueSchedules, settleScheduleStreaks, type ScheduleFireDeps } from './services/schedule-fire.service';
