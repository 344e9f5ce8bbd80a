import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="grid min-h-screen place-items-center p-6">
      <div className="max-w-sm text-center" data-testid="not-found">
        <p className="font-mono text-xs text-muted">404</p>
        <h1 className="mt-1 text-lg font-semibold">Not found</h1>
        <p className="mt-1 text-muted">That page does not exist, or you are not a member of that team.</p>
        <Link href="/" className="mt-4 inline-block text-accent hover:underline">
          Go to your teams
        </Link>
      </div>
    </main>
  );
}
