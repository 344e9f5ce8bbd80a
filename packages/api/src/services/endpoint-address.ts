import { AppError } from '@looplane/shared';
import { resolveOutboundTarget, type OutboundPolicy } from '@looplane/shared/net';

/**
 * Whether a model endpoint's base URL may be connected to now: its host resolves, and to no
 * address the policy refuses (loopback, link-local, metadata, … unless LOOPLANE_ENDPOINTS_ALLOW
 * lists it). The same check, with the same message, when an endpoint is saved and before it is
 * tested, so `endpoints.test` tells nothing more about a refused address than `create` does; the
 * model client checks every connection again. Throws BAD_REQUEST naming `baseUrl`.
 */
export async function checkEndpointAddress(baseUrl: string, addresses: OutboundPolicy): Promise<void> {
  try {
    await resolveOutboundTarget(baseUrl, addresses);
  } catch (error) {
    if (error instanceof AppError) throw new AppError('BAD_REQUEST', `baseUrl: ${error.message}`);
    throw error;
  }
}
