import type { Db, SecretBox } from '@looplane/db';
import { modelEndpointPolicy, type AddressAllowlist, type OutboundPolicy } from '@looplane/shared/net';
import type { WorkspaceReader } from '@looplane/workspaces';
import { resolvePrincipal, type Credentials, type Principal } from './auth/principal';
import type { Dispatch } from './dispatch';
import { DEFAULT_RUN_START_LIMITS, type RunStartLimits } from './services/run-start-limits';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './services/upload-limits';
import type { WebhookSettings } from './services/webhooks.service';

/** Long-lived dependencies of the API, created once per server process. */
export interface ApiDeps {
  db: Db;
  /** After-commit wake-ups and live notices (queue + Redis pub/sub). */
  dispatch: Dispatch;
  /**
   * Reads session files from the workspace store (the store of record, not a worker's disk), for
   * `sessions.files`, `sessions.diff` and the workspace download; absent: files are not served here.
   */
  workspaces?: WorkspaceReader | null;
  /** Seals model endpoint keys (LOOPLANE_ENCRYPTION_KEY); without it keys cannot be stored or used. */
  secretBox?: SecretBox | null;
  /** How much work a team may start (runs, forks, resumes); default {@link DEFAULT_RUN_START_LIMITS}. */
  runLimits?: RunStartLimits;
  /** Where webhook endpoints may point (LOOPLANE_WEBHOOKS_ALLOW_PRIVATE); default: public addresses only. */
  webhooks?: WebhookSettings;
  /**
   * Special-purpose addresses (loopback, link-local, …) model endpoints may still reach
   * (LOOPLANE_ENDPOINTS_ALLOW); default: none.
   */
  endpointsAllow?: AddressAllowlist;
  /** How large an uploaded archive may be (LOOPLANE_UPLOAD_MAX_MB); default {@link DEFAULT_UPLOAD_LIMITS}. */
  uploads?: UploadLimits;
}

export interface RequestInfo extends Credentials {
  ip: string | null;
}

export interface Context {
  db: Db;
  dispatch: Dispatch;
  workspaces: WorkspaceReader | null;
  principal: Principal | null;
  ip: string | null;
  secretBox: SecretBox | null;
  runLimits: RunStartLimits;
  webhooks: WebhookSettings;
  /** Where model endpoints may connect: checked when one is saved, tested, and at every connection. */
  endpointAddresses: OutboundPolicy;
  uploadLimits: UploadLimits;
}

/** Builds the per-request tRPC context: resolves the caller once, up front. */
export async function createTrpcContext(deps: ApiDeps, request: RequestInfo): Promise<Context> {
  const principal = await resolvePrincipal(deps.db, request);
  return {
    db: deps.db,
    dispatch: deps.dispatch,
    workspaces: deps.workspaces ?? null,
    principal,
    ip: request.ip,
    secretBox: deps.secretBox ?? null,
    runLimits: deps.runLimits ?? DEFAULT_RUN_START_LIMITS,
    webhooks: deps.webhooks ?? { allowPrivate: false },
    endpointAddresses: modelEndpointPolicy(deps.endpointsAllow ?? []),
    uploadLimits: deps.uploads ?? DEFAULT_UPLOAD_LIMITS,
  };
}
