/** next-auth provider id of the optional SSO (OIDC) provider; shared by server config and sign-in page. */
export const OIDC_PROVIDER_ID = 'oidc';
