'use client';

import { Textarea } from '@/components/ui/field';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** What the editor holds: valid JSON object arguments, or why not. */
export type EditedArgs = { ok: true; args: Record<string, Json> } | { ok: false; error: string };

/** Parses the editor's text: only a JSON object is a tool's arguments. */
export function parseArgs(source: string): EditedArgs {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : 'parse error'}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'The arguments must be a JSON object' };
  // JSON.parse yields JSON values only.
  return { ok: true, args: value as Record<string, Json> };
}

/**
 * A JSON editor for a call's arguments, checked as you type (the server checks them again against
 * the tool's own parameter schema when the approval is sent).
 */
export function ArgsEditor({ value, onChange, id }: { value: string; onChange: (value: string) => void; id: string }) {
  const parsed = parseArgs(value);
  return (
    <div className="flex flex-col gap-1">
      <Textarea
        id={id}
        rows={Math.min(12, Math.max(3, value.split('\n').length))}
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!parsed.ok}
        aria-label="Edited arguments (JSON)"
        className="font-mono text-xs"
        data-testid="approval-args-editor"
      />
      {parsed.ok ? null : (
        <p className="text-xs text-danger" data-testid="approval-args-invalid">
          {parsed.error}
        </p>
      )}
    </div>
  );
}
