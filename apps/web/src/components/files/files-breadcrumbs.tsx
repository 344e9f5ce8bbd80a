import { ChevronRight } from 'lucide-react';
import { crumbs } from './files-format';

/** Where in the workspace the panel is; every part above the current one is a link back up. */
export function FilesBreadcrumbs({ path, onOpen }: { path: string; onOpen: (path: string) => void }) {
  const trail = crumbs(path);
  return (
    <nav aria-label="Workspace path" data-testid="files-breadcrumbs" data-path={path}>
      <ol className="flex flex-wrap items-center gap-1 font-mono text-xs">
        {trail.map((crumb, i) => {
          const last = i === trail.length - 1;
          return (
            <li key={crumb.path} className="flex items-center gap-1">
              {i > 0 ? <ChevronRight aria-hidden className="size-3 text-muted" /> : null}
              {last ? (
                <span aria-current="location" className="font-semibold">
                  {crumb.name}
                </span>
              ) : (
                <button
                  type="button"
                  className="rounded text-accent hover:underline focus-visible:ring-2 focus-visible:ring-ring/30 focus-visible:outline-none"
                  onClick={() => onOpen(crumb.path)}
                  data-testid="files-crumb"
                  data-path={crumb.path}
                >
                  {crumb.name}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
