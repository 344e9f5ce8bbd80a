// Team secrets as the worker reads them: sealed, with the kind that says how a value may be used
// (an egress header, a forge token, an ssh key). The API writes them through Prisma.
export { sealedSecret, sealedSecrets, type SealedSecret, type Forge } from './sealed-secret.repository';
