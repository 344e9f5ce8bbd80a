import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { holdsNoSql, sqlFindings } from './sql-rules';

/**
 * The import direction of the monorepo (DESIGN.md): apps → packages; the engine imports no other
 * workspace package but `shared`, and no IO; storage/queue/sandbox/model packages never import
 * the API. A workspace may only import workspace packages it declares as dependencies.
 */
export interface Workspace {
  name: string; // e.g. "@looplane/db"
  dir: string; // absolute
  kind: 'app' | 'package';
  declared: Set<string>;
}

export interface SourceFile {
  workspace: Workspace;
  path: string; // absolute
  source: string;
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** Node modules and packages that perform IO; the engine must reach them only through ports. */
const IO_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'dgram',
  'dns',
  'tls',
  'worker_threads',
  'cluster',
  'pg',
  'ioredis',
  'bullmq',
  'openai',
  'undici',
  'node-fetch',
];
const IO_PREFIXES = ['@prisma/'];
// @looplane/client's runtime (src/) is generated from the document, never from the server's code;
// its generator and contract test (codegen/, contract/) use @looplane/api as a dev dependency.
const NEVER_IMPORT_API = [
  '@looplane/db',
  '@looplane/queue',
  '@looplane/sandbox',
  '@looplane/models',
  '@looplane/engine',
  '@looplane/policy',
  '@looplane/shared',
  '@looplane/client',
  '@looplane/events',
];
// @looplane/events is in the dashboard's browser bundle: the engine's event codec (one source of
// the event versions) and zod, nothing else, and no Node built-in.
const EVENTS_PACKAGE = '@looplane/events';
const EVENTS_MAY_IMPORT = new Set(['@looplane/engine/events', 'zod']);
const NODE_BUILTINS = new Set(builtinModules);

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every module specifier a source file imports (static, dynamic, side-effect and require). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_RE)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (spec) found.push(spec);
  }
  return found;
}

function bareName(specifier: string): string {
  const withoutNode = specifier.replace(/^node:/, '');
  const parts = withoutNode.split('/');
  return withoutNode.startsWith('@') ? parts.slice(0, 2).join('/') : withoutNode;
}

/** Checks one file's imports against the rules. */
export function checkFile(file: SourceFile, workspaceNames: Set<string>): Violation[] {
  const violations: Violation[] = [];
  const ws = file.workspace;
  const add = (specifier: string, rule: string) => violations.push({ file: file.path, specifier, rule });
  for (const specifier of importsOf(file.source)) {
    if (specifier.startsWith('.')) {
      const target = resolve(file.path, '..', specifier);
      if (!(target + sep).startsWith(ws.dir + sep) && target !== ws.dir) add(specifier, 'relative import leaves its workspace');
      continue;
    }
    const name = bareName(specifier);
    if (workspaceNames.has(name)) {
      if (ws.kind === 'package' && (name === '@looplane/web' || name === '@looplane/worker')) add(specifier, 'packages never import apps');
      if (NEVER_IMPORT_API.includes(ws.name) && name === '@looplane/api') add(specifier, `${ws.name} never imports @looplane/api`);
      if (ws.name === '@looplane/engine' && name !== '@looplane/shared') add(specifier, 'the engine imports only @looplane/shared');
      if (name !== ws.name && !ws.declared.has(name)) add(specifier, `${name} is not declared in ${ws.name}'s package.json`);
    }
    // Its tests never reach a bundle.
    if (ws.name === EVENTS_PACKAGE && !file.path.endsWith('.test.ts')) {
      if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier)) add(specifier, 'the events package is browser-safe: no Node built-ins');
      else if (!EVENTS_MAY_IMPORT.has(specifier)) add(specifier, 'the events package imports only @looplane/engine/events and zod');
    }
    if (ws.name === '@looplane/engine') {
      const bare = specifier.replace(/^node:/, '');
      if (IO_MODULES.includes(bare) || IO_MODULES.includes(name) || IO_PREFIXES.some((p) => specifier.startsWith(p))) {
        add(specifier, 'the engine does no IO');
      }
    }
  }
  return violations;
}

function listSources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => !p.includes(`${sep}generated${sep}`) && !p.includes(`${sep}node_modules${sep}`) && !p.includes(`${sep}.next${sep}`));
}

/** Loads every workspace under apps/ and packages/ with its source files. */
function loadWorkspaces(root: string): { workspaces: Workspace[]; files: SourceFile[] } {
  const workspaces: Workspace[] = [];
  for (const [folder, kind] of [
    ['apps', 'app'],
    ['packages', 'package'],
  ] as const) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const dir = join(root, folder, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string>;
      const declared = new Set([
        ...Object.keys((pkg.dependencies as Record<string, string>) ?? {}),
        ...Object.keys((pkg.devDependencies as Record<string, string>) ?? {}),
      ]);
      workspaces.push({ name: pkg.name as string, dir, kind, declared });
    }
  }
  const files = workspaces.flatMap((workspace) =>
    ['src', 'bin', 'app']
      .flatMap((sub) => listSources(join(workspace.dir, sub)))
      .map((path) => ({
        workspace,
        path,
        source: readFileSync(path, 'utf8'),
      })),
  );
  return { workspaces, files };
}

/** All violations in the repository, as `file: specifier (rule)` lines relative to root. */
export function checkRepository(root: string): string[] {
  const { workspaces, files } = loadWorkspaces(root);
  const names = new Set(workspaces.map((w) => w.name));
  return files.flatMap((file) => checkFile(file, names).map((v) => `${relative(root, v.file)}: ${v.specifier} (${v.rule})`));
}

/** Every statement outside packages/db, as `file:line (what)` lines relative to root (#31: one data layer). */
export function checkSqlPlacement(root: string): string[] {
  const { files } = loadWorkspaces(root);
  return files
    .filter((file) => holdsNoSql(file.workspace.name, file.path))
    .flatMap((file) => sqlFindings(file.source).map((f) => `${relative(root, file.path)}:${f.line} (${f.what} outside packages/db)`));
}
