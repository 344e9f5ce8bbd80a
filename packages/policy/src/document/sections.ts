import { hostAllowed } from '../hosts';
import { globMatches } from '../tool-names';
import { meetsIsolation } from '@looplane/shared';
import type { PolicyDocument } from './policy-schema';

/** Whether the sandbox may reach `host:port` (the egress proxy asks this for every connection). */
export function isEgressAllowed(document: PolicyDocument, host: string, port: number): boolean {
  return hostAllowed(document.egress.allow, host, port);
}

/**
 * Credentials the egress proxy injects for `host:port`: header names and secret references only;
 * the worker resolves the references. Only for hosts egress allows.
 */
export function egressCredentials(document: PolicyDocument, host: string, port: number): { header: string; secretRef: string }[] {
  if (!isEgressAllowed(document, host, port)) return [];
  return document.egress.credentials.filter((credential) => hostAllowed([credential.host], host, port)).map(({ header, secretRef }) => ({ header, secretRef }));
}

/** Whether a model endpoint (by name) may be used; entries may be globs (`*` allows every endpoint). */
export function isEndpointAllowed(document: PolicyDocument, endpointName: string): boolean {
  return document.models.allowedEndpoints.some((pattern) => globMatches(pattern, endpointName));
}

/**
 * Whether a sandbox driver meets the policy's minimum. `dangerous-*` drivers, and any driver this
 * package does not know, never do.
 */
export function isDriverAllowed(document: PolicyDocument, driver: string): boolean {
  return meetsIsolation(driver, document.sandbox.minimumDriver);
}
