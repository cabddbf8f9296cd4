/**
 * No export is left that nothing imports (issue 29, goal 5): an export nobody uses is code kept alive
 * by its keyword alone. Every workspace's src is checked; every TypeScript file of the tree (tests,
 * configs and tools included) counts as a user, so an export used by a test only is used.
 * TypeScript 7 has no compiler API, so this reads the files with a small scanner: comments are
 * dropped, then `export` declarations, `export {…}` (with or without `from`), `export *`, and
 * `import … from`, `import(…)`, `require(…)` and `jest.mock(…)` are read. A dynamic import, `require`
 * or `import * as` counts as a use of every export of the module it names. Roots, used from outside
 * the TypeScript: the modules a frontend exposes to the shell (its webpack config's `exposes`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const SKIP = new Set(['node_modules', 'dist', 'dist-server', 'test-output', 'coverage']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name) || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.(c|m)?tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
const workspaces = rootPackage.workspaces.map((dir) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, string>;
  };
  return { dir: join(ROOT, dir), name: pkg.name, exports: pkg.exports ?? {} };
});

/** Comments dropped, strings kept (a `//` in a URL is no comment). */
function code(text: string): string {
  return text.replace(
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (_match, literal: string | undefined) => literal ?? '',
  );
}

function resolveFile(base: string): string | undefined {
  const stem = base.replace(/\.(c|m)?js$/, '');
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    join(stem, 'index.ts'),
    join(stem, 'index.tsx'),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** The file a specifier names, or undefined for a module outside the tree. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolveFile(resolve(dirname(from), specifier));
  const workspace = workspaces.find((w) => specifier === w.name || specifier.startsWith(`${w.name}/`));
  if (!workspace) return undefined;
  const sub = `.${specifier.slice(workspace.name.length)}`;
  const target = workspace.exports[sub];
  return resolveFile(join(workspace.dir, target ?? sub));
}

interface Module {
  /** The file's code: comments dropped, string literals emptied. */
  body: string;
  /** The names this file declares and exports itself. */
  own: Set<string>;
  /** Exported name → [file, its name there] for `export { a as b } from`. */
  forwards: Map<string, [string | undefined, string]>;
  /** `export * from` sources. */
  stars: (string | undefined)[];
  /** Every module all of whose exports this file uses (`import * as`, `import()`, `require`). */
  usesAll: (string | undefined)[];
  /** [file, name] imported by name. */
  uses: [string | undefined, string][];
}

const names = (list: string) =>
  list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [name, alias] = part.split(/\s+as\s+/);
      return { name: (name ?? '').trim(), alias: (alias ?? name ?? '').trim() };
    });

function parse(file: string): Module {
  const text = code(readFileSync(file, 'utf8'));
  const at = (specifier: string) => resolveSpecifier(file, specifier);
  const body = text.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, "''");
  const m: Module = { body, own: new Set(), forwards: new Map(), stars: [], usesAll: [], uses: [] };
  const declaration =
    /\bexport\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/g;
  for (const [, name] of text.matchAll(declaration)) m.own.add(name as string);
  for (const [, list] of text.matchAll(/\bexport\s+(?:const|let|var)\s+\{([^}]*)\}\s*=/g))
    for (const part of (list as string).split(','))
      if (part.trim() && !part.includes('...')) m.own.add(part.split(':').pop()?.trim() as string);
  if (/\bexport\s+default\b/.test(text) || /\bexport\s*=/.test(text)) m.own.add('default');
  for (const [, list, specifier] of text.matchAll(
    /\bexport\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/g,
  )) {
    for (const { name, alias } of names(list as string)) {
      if (specifier) m.forwards.set(alias, [at(specifier), name]);
      else m.own.add(alias);
    }
  }
  for (const [, ns, specifier] of text.matchAll(
    /\bexport\s+\*\s*(?:as\s+([A-Za-z_$][\w$]*)\s*)?from\s*['"]([^'"]+)['"]/g,
  )) {
    if (ns) {
      m.own.add(ns);
      m.usesAll.push(at(specifier as string));
    } else m.stars.push(at(specifier as string));
  }
  for (const [, clause, specifier] of text.matchAll(
    /\bimport\s+(?:type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g,
  )) {
    const target = at(specifier as string);
    const c = (clause as string).trim();
    if (/\*\s*as\s/.test(c)) m.usesAll.push(target);
    const braces = /\{([^}]*)\}/.exec(c);
    if (braces) for (const { name } of names(braces[1] as string)) m.uses.push([target, name]);
    const head = c.replace(/\{[^}]*\}/, '').replace(/\*\s*as\s+[\w$]+/, '');
    if (/^[A-Za-z_$][\w$]*/.test(head.trim())) m.uses.push([target, 'default']);
  }
  for (const [, specifier] of text.matchAll(
    /\b(?:import|require(?:\.resolve)?|jest\.(?:mock|requireActual))\s*\(\s*['"]([^'"]+)['"]/g,
  ))
    m.usesAll.push(at(specifier as string));
  return m;
}

const ALL_FILES = tsFiles(ROOT);
const modules = new Map(ALL_FILES.map((f) => [f, parse(f)]));

/**
 * Modules whose exports are used from outside the scanned imports: the server renderer's bundle (its
 * API is `require`d by the gateway from the built file; infra/cli/src/server-renderer.ts), the module
 * that bundle puts in place of the shell's remotes.ts, and the shell's list of modules it shares with
 * the remotes only (imported for its side effect: webpack must see each `import()`).
 */
const BUNDLE_ROOTS = [
  'frontends/shell/src/server/render.tsx',
  'frontends/shell/src/server/remotes.ts',
  'frontends/shell/src/shared-for-remotes.ts',
];

/** The roots: what each frontend's webpack config exposes to the shell, and the bundles' own. */
function roots(): string[] {
  const exposed = workspaces.flatMap((w) => {
    const config = join(w.dir, 'webpack.config.mts');
    if (!existsSync(config)) return [];
    const block = /exposes:\s*\{([^}]*)\}/.exec(readFileSync(config, 'utf8'))?.[1] ?? '';
    return [...block.matchAll(/:\s*['"]([^'"]+)['"]/g)].flatMap(([, path]) => {
      const file = resolveFile(join(w.dir, path as string));
      return file ? [file] : [];
    });
  });
  return [...exposed, ...BUNDLE_ROOTS.map((path) => join(ROOT, path))];
}

function usedExports(): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const seen = new Set<string>();
  const use = (file: string | undefined, name: string): void => {
    const m = file && modules.get(file);
    if (!file || !m || seen.has(`${file}\0${name}`)) return;
    seen.add(`${file}\0${name}`);
    if (!used.has(file)) used.set(file, new Set());
    used.get(file)?.add(name);
    const forward = m.forwards.get(name);
    if (forward) use(forward[0], forward[1]);
    else if (!m.own.has(name)) for (const star of m.stars) use(star, name);
  };
  const useAll = (file: string | undefined): void => {
    const m = file && modules.get(file);
    if (!file || !m || seen.has(`${file}\0*`)) return;
    seen.add(`${file}\0*`);
    for (const name of [...m.own, ...m.forwards.keys()]) use(file, name);
    for (const star of m.stars) useAll(star);
  };
  for (const m of modules.values()) {
    for (const [file, name] of m.uses) use(file, name);
    for (const file of m.usesAll) useAll(file);
  }
  for (const file of roots()) useAll(file);
  return used;
}

/** Whether the file names `name` again beyond declaring it (a type its exported signatures use). */
const usedInFile = (m: Module, name: string) =>
  name !== 'default' &&
  // Not a property of the same name (`x.name`), but a spread is a use (`...name`).
  (m.body.match(new RegExp(`(?<![\\w$])(?<![^.]\\.)${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ??
    0) > 1;

/**
 * Every export of a workspace's src that is used nowhere, as `path: name`: no file imports it
 * (directly or through an index) and its own file does not use it either. An export used only in its
 * own file is left alone (its keyword may be needed by a signature); an index forwarding a name is
 * not itself reported (the name's own file is, if nothing uses it).
 */
function unusedExports(): string[] {
  const used = usedExports();
  const sources = workspaces.flatMap((w) => ALL_FILES.filter((f) => f.startsWith(join(w.dir, 'src/'))));
  return sources.flatMap((file) => {
    const m = modules.get(file) as Module;
    return [...m.own]
      .filter((name) => !used.get(file)?.has(name) && !usedInFile(m, name))
      .map((name) => `${relative(ROOT, file)}: ${name}`);
  });
}

it('reads the tree', () => {
  expect(ALL_FILES.length).toBeGreaterThan(300);
  // The scanner sees the uses it must: a named import through a package's index, a namespace import.
  const contractsIndex = resolveSpecifier(__filename, '@decor/contracts');
  expect(contractsIndex && relative(ROOT, contractsIndex)).toBe('services/contracts/src/index.ts');
  expect(roots().filter((file) => !modules.has(file))).toEqual([]);
  expect(roots().length).toBeGreaterThan(BUNDLE_ROOTS.length);
});

it('every export of every workspace is used: imported by some file, or at least by its own', () => {
  expect(unusedExports()).toEqual([]);
});
