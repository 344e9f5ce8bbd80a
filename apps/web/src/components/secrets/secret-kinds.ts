import type { RouterOutputs } from '@/lib/api-types';

type Secret = RouterOutputs['secrets']['list']['secrets'][number];
export type SecretKind = Secret['kind'];

/** How the dashboard names each kind of secret. */
export const KIND_LABELS: Record<SecretKind, string> = { header: 'Header value', token: 'Forge token', ssh_key: 'SSH private key' };

export type Forge = NonNullable<Secret['forge']>;

/** How the dashboard names each forge. */
export const FORGE_LABELS: Record<Forge, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' };
