/** Facts about the server under test, published by global setup (or given by the caller). */
export const ADMIN_EMAIL = 'admin@looplane.local';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (global setup sets it; set it yourself with E2E_BASE_URL)`);
  return value;
}

export const stack = {
  get baseURL(): string {
    return required('E2E_BASE_URL');
  },
  get adminPassword(): string {
    return required('E2E_ADMIN_PASSWORD');
  },
  get bootstrapToken(): string {
    return required('E2E_BOOTSTRAP_TOKEN');
  },
  /** The server's LOOPLANE_HOME (the worker keeps its local workspaces under it). */
  get home(): string {
    return required('E2E_LOOPLANE_HOME');
  },
  /**
   * A second web on the same database and Redis, with a LOOPLANE_HOME no worker uses, that trusts
   * 127.0.0.1 as its reverse proxy (LOOPLANE_TRUSTED_PROXIES): X-Forwarded-* sent to it count.
   */
  get separateWebURL(): string {
    return required('E2E_SEPARATE_WEB_URL');
  },
  /** That second web's LOOPLANE_HOME (empty when it started). */
  get separateWebHome(): string {
    return required('E2E_SEPARATE_WEB_HOME');
  },
};

/** A name no other test run has used (tests share one database). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}
