import { config } from 'zod';

// The pages' Content-Security-Policy allows no eval (src/lib/security-headers.ts). zod compiles
// object parsers with `new Function` unless told not to, and probes for it when the first object
// schema is made; the refused probe is a reported CSP violation even though zod catches it. This
// file runs before any component module, so before the first schema.
config({ jitless: true });
