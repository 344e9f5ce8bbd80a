/**
 * The response headers that protect the dashboard and the API, in one place: `next.config.ts`
 * sends the static ones on every response, `src/proxy.ts` the pages' Content-Security-Policy with
 * a fresh nonce, and the server in front of Next (`server/main.ts`) HSTS when served over https.
 */

/** Browser features the dashboard never uses: denied to it and to anything it might embed. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

/** Sent on every response (pages, API, static files). */
export const STATIC_SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  // frame-ancestors 'none' in the CSP says the same to current browsers; this is for older ones.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: PERMISSIONS_POLICY },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** API responses (JSON, SSE, tarballs) are never documents to render: they may load nothing. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Two years, subdomains too; sent only on responses to https requests or with an https public URL. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/**
 * The pages' policy. Scripts run only with this response's nonce (Next puts it on its own
 * scripts; `strict-dynamic` lets those load the app's chunks), so an injected `<script>` or
 * inline handler does not run. Styles allow inline `style` attributes, which React renders
 * (virtualised lists, graph layouts) and which cannot carry a nonce; they cannot run code.
 * Everything else is this origin only, and no site may frame the dashboard.
 */
export function pageContentSecurityPolicy(nonce: string, options: { development?: boolean; https?: boolean } = {}): string {
  const directives = [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // The dashboard talks to its own origin only (tRPC, SSE); `next dev` adds its HMR socket.
    `connect-src 'self'${options.development ? ' ws: wss:' : ''}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}
