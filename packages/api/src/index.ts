export { appRouter, type AppRouter } from './root';
export { createCallerFactory, type Access, type Meta } from './trpc';
export { createTrpcContext, type ApiDeps, type Context, type RequestInfo } from './context';
export { resolvePrincipal, resolveTeamRole, type Principal, type Credentials } from './auth/principal';
export { authenticateCredentials } from './auth/credentials';
export { handleTrpcRequest, MAX_BODY_BYTES, type TrpcHttpOptions } from './http';
export { linkOidcIdentity, linkedUserId, type OidcIdentity } from './auth/oidc-link';
