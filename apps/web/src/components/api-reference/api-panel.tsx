'use client';

import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useParams } from 'next/navigation';

/** Scalar is large: it loads only on this page, in the browser. */
const ApiReferenceView = dynamic(() => import('./api-reference-view'), {
  ssr: false,
  loading: () => <p className="text-[13px] text-muted">Loading the API reference…</p>,
});

const OPENAPI_PATH = '/api/openapi.json';

/** Settings → API: how to call the REST API, and its reference rendered from the live document. */
export function ApiPanel() {
  const { team } = useParams<{ team: string }>();
  return (
    <div className="space-y-5">
      <section aria-labelledby="api-access" className="space-y-2 text-[13px]">
        <h2 id="api-access" className="text-sm font-semibold">
          REST API
        </h2>
        <p className="text-muted">
          Every route lives under <code className="font-mono">/api/v1</code> and takes a team API token as{' '}
          <code className="font-mono">Authorization: Bearer …</code> (the session cookie is not accepted). Create one under{' '}
          <Link className="text-accent underline" href={`/t/${team}/settings/tokens`}>
            API tokens
          </Link>
          . Errors are <code className="font-mono">application/problem+json</code>; <code className="font-mono">POST /api/v1/runs</code> honours an{' '}
          <code className="font-mono">Idempotency-Key</code> header.
        </p>
        <p>
          <a className="text-accent underline" href={OPENAPI_PATH} data-testid="openapi-link">
            OpenAPI 3.1 document
          </a>
        </p>
      </section>
      <ApiReferenceView specUrl={OPENAPI_PATH} />
    </div>
  );
}
