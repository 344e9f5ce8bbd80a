'use client';

import { Field, Input } from '@/components/ui/field';
import type { RepositoryDraft } from '@/lib/workspace-draft';
import { SecretRefField } from './secret-ref-field';

/**
 * A repository to start from: URL, ref, the secret it is fetched with and, where asked for, the
 * history depth. `idPrefix` keeps the labels' ids unique on a page; `testPrefix` names the controls.
 */
export function RepositoryFields({
  value,
  onChange,
  idPrefix,
  testPrefix,
  withDepth = true,
}: {
  value: RepositoryDraft;
  onChange: (value: RepositoryDraft) => void;
  idPrefix: string;
  testPrefix: string;
  withDepth?: boolean;
}) {
  const set = (key: keyof RepositoryDraft) => (text: string) => onChange({ ...value, [key]: text });
  return (
    <div className="grid gap-3 sm:grid-cols-6">
      <Field
        label="Repository URL"
        htmlFor={`${idPrefix}-url`}
        className="sm:col-span-6"
        hint="https://…, ssh://…, git@host:path or file:///…; never a token in it"
      >
        <Input
          id={`${idPrefix}-url`}
          value={value.url}
          maxLength={2000}
          onChange={(e) => set('url')(e.target.value)}
          placeholder="https://github.com/acme/api.git"
          spellCheck={false}
          autoComplete="off"
          data-testid={`${testPrefix}-url`}
        />
      </Field>
      <Field label="Branch, tag or commit (optional)" htmlFor={`${idPrefix}-ref`} className="sm:col-span-2" hint="Default: the remote's HEAD">
        <Input
          id={`${idPrefix}-ref`}
          value={value.ref}
          maxLength={255}
          onChange={(e) => set('ref')(e.target.value)}
          placeholder="main"
          spellCheck={false}
          data-testid={`${testPrefix}-ref`}
        />
      </Field>
      <div className={withDepth ? 'sm:col-span-3' : 'sm:col-span-4'}>
        <SecretRefField id={`${idPrefix}-secret`} value={value.secretRef} onChange={set('secretRef')} testId={`${testPrefix}-secret`} />
      </div>
      {withDepth ? (
        <Field label="History depth" htmlFor={`${idPrefix}-depth`} hint="Default 1">
          <Input
            id={`${idPrefix}-depth`}
            type="number"
            min={1}
            step={1}
            value={value.depth}
            onChange={(e) => set('depth')(e.target.value)}
            placeholder="1"
            data-testid={`${testPrefix}-depth`}
          />
        </Field>
      ) : null}
    </div>
  );
}
