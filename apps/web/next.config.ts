import type { NextConfig } from 'next';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from './src/lib/security-headers';

// Pages get their Content-Security-Policy (with a nonce) from src/proxy.ts; HSTS comes from server/main.ts.
const apiHeaders = [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }];

const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript source with extensionless imports.
  transpilePackages: [
    '@looplane/api',
    '@looplane/db',
    '@looplane/shared',
    '@looplane/queue',
    '@looplane/engine',
    '@looplane/events',
    '@looplane/models',
    '@looplane/telemetry',
    '@looplane/policy',
    '@looplane/workspaces',
    '@looplane/webhooks',
  ],
  // BullMQ loads its Lua scripts from files next to its own modules: keep it out of the bundle.
  // mvdan-sh (the policy package's shell parser) is one large GopherJS file: load it as is.
  // The AWS SDK (the s3 workspace store) is large and loads parts of itself at run time: not bundled.
  serverExternalPackages: ['bullmq', 'mvdan-sh', '@aws-sdk/client-s3'],
  poweredByHeader: false,
  async headers() {
    return [
      { source: '/:path*', headers: [...STATIC_SECURITY_HEADERS] },
      { source: '/api/:path*', headers: apiHeaders },
      { source: '/metrics', headers: apiHeaders },
    ];
  },
};

export default nextConfig;
