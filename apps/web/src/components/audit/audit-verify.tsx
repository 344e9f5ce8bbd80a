'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * "Verify chain" walks the whole hash chain on the server and shows the verdict; "Export" saves the
 * chain as JSON Lines for `looplane audit verify FILE` to check offline.
 */
export function AuditVerify({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const verify = useQuery({ ...trpc.audit.verify.queryOptions({ teamId }), enabled: false, staleTime: 0, gcTime: 0 });
  const [exportError, setExportError] = useState<unknown>(null);
  const [exporting, setExporting] = useState(false);

  async function download() {
    setExporting(true);
    setExportError(null);
    try {
      const exported = await queryClient.fetchQuery({ ...trpc.audit.export.queryOptions({ teamId }), staleTime: 0 });
      const url = URL.createObjectURL(new Blob([exported.text], { type: 'application/x-ndjson' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = exported.filename;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  }

  const result = verify.data;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="primary" onClick={() => void verify.refetch()} disabled={verify.isFetching} data-testid="audit-verify">
          <ShieldCheck className="size-3.5" aria-hidden />
          Verify chain
        </Button>
        <Button onClick={() => void download()} disabled={exporting} data-testid="audit-export">
          <Download className="size-3.5" aria-hidden />
          Export (JSON Lines)
        </Button>
        {verify.isFetching ? <span className="text-xs text-muted">Verifying…</span> : null}
        {result && !verify.isFetching ? (
          result.ok ? (
            <span className="text-[13px] font-medium text-success" data-testid="audit-verify-result">
              Chain verified ({result.rows} rows)
            </span>
          ) : (
            <span className="text-[13px] font-medium text-danger" data-testid="audit-verify-result">
              Chain broken at row {result.brokenSeq ?? `#${result.position}`}: {result.reason}
            </span>
          )
        ) : null}
      </div>
      <InlineError error={verify.error ?? exportError} testId="audit-verify-error" />
    </div>
  );
}
