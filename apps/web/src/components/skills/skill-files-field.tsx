'use client';

import { SKILL_MAX_FILES } from '@looplane/engine';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input, Textarea } from '@/components/ui/field';

/** One file of a skill as the form edits it; `key` keeps React's rows stable while paths are typed. */
export interface SkillFileDraft {
  key: string;
  path: string;
  content: string;
}

let nextKey = 0;
/** A draft row with a key of its own. */
export function fileDraft(path = '', content = ''): SkillFileDraft {
  nextKey += 1;
  return { key: `file-${nextKey}`, path, content };
}

/**
 * The small text files a loaded skill puts into the run's workspace: a path (relative, inside the
 * workspace) and its text, at most {@link SKILL_MAX_FILES}. The server checks the paths and sizes.
 */
export function SkillFilesField(props: { files: SkillFileDraft[]; onChange: (files: SkillFileDraft[]) => void; readOnly: boolean }) {
  const { files, readOnly } = props;
  const update = (key: string, patch: Partial<SkillFileDraft>) => props.onChange(files.map((file) => (file.key === key ? { ...file, ...patch } : file)));
  const full = files.length >= SKILL_MAX_FILES;

  return (
    <fieldset className="flex flex-col gap-2" data-testid="skill-files">
      <legend className="mb-1 text-xs font-medium text-muted">
        Files ({files.length} of {SKILL_MAX_FILES})
      </legend>
      <p className="text-xs text-muted">Written into the run&apos;s workspace when the skill is loaded: relative paths, text only, 64 KB each.</p>
      {files.length === 0 ? <p className="text-xs text-muted">No files.</p> : null}
      <ol className="flex flex-col gap-3">
        {files.map((file, index) => (
          <li key={file.key} className="flex flex-col gap-1.5 rounded-md border border-border p-2" data-testid="skill-file">
            <div className="flex items-center gap-2">
              <Input
                aria-label={`File ${index + 1} path`}
                value={file.path}
                onChange={(event) => update(file.key, { path: event.target.value })}
                readOnly={readOnly}
                placeholder="e.g. templates/quote.md"
                className="font-mono text-[12px]"
                autoComplete="off"
                data-testid="skill-file-path"
              />
              {readOnly ? null : (
                <Button
                  size="icon"
                  variant="danger-ghost"
                  aria-label={`Remove file ${file.path || index + 1}`}
                  onClick={() => props.onChange(files.filter((other) => other.key !== file.key))}
                  data-testid="skill-file-remove"
                >
                  <Trash2 aria-hidden className="size-3.5" />
                </Button>
              )}
            </div>
            <Textarea
              aria-label={`File ${index + 1} content`}
              value={file.content}
              onChange={(event) => update(file.key, { content: event.target.value })}
              readOnly={readOnly}
              rows={4}
              spellCheck={false}
              className="font-mono text-[12px]"
              data-testid="skill-file-content"
            />
          </li>
        ))}
      </ol>
      {readOnly ? null : (
        <div>
          <Button
            size="sm"
            disabled={full}
            title={full ? `A skill carries at most ${SKILL_MAX_FILES} files` : undefined}
            onClick={() => props.onChange([...files, fileDraft()])}
            data-testid="skill-file-add"
          >
            <Plus aria-hidden className="size-3.5" /> Add file
          </Button>
        </div>
      )}
    </fieldset>
  );
}
