/**
 * The workspaces' dependency graph (every package.json of the root's workspaces, dependencies and
 * devDependencies alike) has no loop: a package never needs, even for its tests, a package that
 * needs it. The local stack depends on no service. No service (the packages under services/, the kit
 * and contracts included) and not the gateway depends on or imports another service: the tests that
 * need two of them live in @decor/testbed (infra/testbed), on which none of them depends either: the
 * testbed composes the product for the tests, the fault suite and the bench (which depends on it). The
 * kit neither depends on nor imports @decor/stack: its test helpers read the servers' endpoints from
 * the environment.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

type Graph = ReadonlyMap<string, readonly string[]>;

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Workspace name → the workspaces it depends on, in any of its dependency lists. */
function workspaceGraph(root: string): Graph {
  const manifests = (manifest(root).workspaces ?? []).map((dir) => manifest(join(root, dir)));
  const names = new Set(manifests.map((m) => m.name));
  return new Map(
    manifests.map((m) => {
      const deps = [m.dependencies, m.devDependencies, m.peerDependencies, m.optionalDependencies].flatMap(
        (d) => Object.keys(d ?? {}),
      );
      return [m.name, [...new Set(deps)].filter((d) => names.has(d)).sort()];
    }),
  );
}

/**
 * Every loop of the graph, each as the packages of one strongly connected component (Tarjan), sorted;
 * a package depending on itself is a loop of one.
 */
export function dependencyLoops(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) loops.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

/** Everything `from` depends on, directly or not. */
function reach(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(graph.get(next) ?? []));
  }
  return seen;
}

const graph = workspaceGraph(ROOT);

/** A workspace whose package is a service or the gateway (its dir), and the packages it may not name. */
interface Bounded {
  name: string;
  dir: string;
  /** Packages it may neither depend on nor import. */
  forbidden: readonly string[];
}

/** The services (under services/, not contracts or the kit) and the gateway: the packages of the product's processes. */
const SERVICE_PACKAGES = (manifest(ROOT).workspaces ?? [])
  .filter((dir) => (dir.startsWith('services/') || dir === 'gateway') && !/\/(contracts|kit)$/.test(dir))
  .map((dir) => manifest(join(ROOT, dir)).name);

/** Every package under services/ (contracts and the kit included) and the gateway, with what it may not name. */
const BOUNDED: readonly Bounded[] = (manifest(ROOT).workspaces ?? [])
  .filter((dir) => dir.startsWith('services/') || dir === 'gateway')
  .map((dir) => {
    const name = manifest(join(ROOT, dir)).name;
    const forbidden = [...SERVICE_PACKAGES.filter((s) => s !== name), '@decor/testbed'];
    return { name, dir, forbidden: name === '@decor/kit' ? [...forbidden, '@decor/stack'] : forbidden };
  });

/** `name → dependency` for each forbidden package a workspace lists, in any of its dependency lists. */
export function forbiddenDependencies(g: Graph, bounded: readonly Bounded[]): string[] {
  return bounded.flatMap((b) =>
    (g.get(b.name) ?? []).filter((d) => b.forbidden.includes(d)).map((d) => `${b.name} → ${d}`),
  );
}

/** The package a line of code imports (`from`, `import(…)`, a bare `import '…'`, `require(…)`, `jest.mock(…)`), each. */
export function importedPackages(text: string): string[] {
  const specifiers = text.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*|\brequire\s*\(\s*|\bjest\.mock\s*\(\s*)(['"])(@decor\/[^/'"]+)/gm,
  );
  return [...specifiers].map((m) => m[2] as string);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') return [];
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.(c|m)?tsx?$/.test(name) ? [path] : [];
  });
}

/** `file → package` for each forbidden package a file of a bounded workspace (src, tests, tools) imports. */
function forbiddenImports(bounded: readonly Bounded[]): string[] {
  return bounded.flatMap((b) =>
    tsFiles(join(ROOT, b.dir)).flatMap((file) =>
      importedPackages(readFileSync(file, 'utf8'))
        .filter((p) => b.forbidden.includes(p))
        .map((p) => `${relative(ROOT, file)} → ${p}`),
    ),
  );
}

describe('the workspaces’ dependency graph', () => {
  it('reads every workspace', () => {
    expect(graph.size).toBe(manifest(ROOT).workspaces?.length);
    expect(graph.get('@decor/testbed')).toEqual(expect.arrayContaining(['@decor/gateway', '@decor/user']));
  });

  it('has no loop', () => {
    expect(dependencyLoops(graph)).toEqual([]);
  });

  it('keeps the local stack and the two emulators free of every service and script', () => {
    expect([...reach(graph, '@decor/stack')].sort()).toEqual([
      '@decor/contracts',
      '@decor/payments-emulator',
      '@decor/qbo-emulator',
    ]);
    expect([...reach(graph, '@decor/qbo-emulator')]).toEqual([]);
    expect([...reach(graph, '@decor/payments-emulator')]).toEqual([]);
  });

  it('lets only the tools on top depend on the testbed: the bench and the browser journeys, never the cli', () => {
    const dependents = [...graph].filter(([, deps]) => deps.includes('@decor/testbed')).map(([name]) => name);
    expect(dependents).toEqual(expect.arrayContaining(['@decor/bench', '@decor/e2e']));
    expect(dependents).not.toContain('@decor/cli');
    expect(dependents.filter((d) => BOUNDED.some((b) => b.name === d))).toEqual([]);
  });

  it('finds a loop planted in it: a service depending on the testbed, which depends on it', () => {
    const planted = new Map(graph);
    planted.set('@decor/order', [...(graph.get('@decor/order') ?? []), '@decor/testbed']);
    const loops = dependencyLoops(planted);
    expect(loops).toHaveLength(1);
    expect(loops[0]).toEqual(expect.arrayContaining(['@decor/order', '@decor/testbed']));
  });
});

describe('no service or the gateway depends on another service or the testbed; the kit not on the stack', () => {
  it('knows the services and the packages it bounds', () => {
    expect([...SERVICE_PACKAGES].sort()).toEqual([
      '@decor/accounting-sync',
      '@decor/cart',
      '@decor/catalogue',
      '@decor/gateway',
      '@decor/notification',
      '@decor/order',
      '@decor/user',
    ]);
    expect(BOUNDED.map((b) => b.name)).toEqual(expect.arrayContaining(['@decor/kit', '@decor/contracts']));
    expect(BOUNDED.find((b) => b.name === '@decor/kit')?.forbidden).toContain('@decor/stack');
    for (const b of BOUNDED) expect(b.forbidden).toContain('@decor/testbed');
  });

  it('refuses a planted dependency of each kind: the gateway on a service, a service on another or on the testbed, the kit on the stack', () => {
    const planted = new Map(graph);
    planted.set('@decor/gateway', [...(graph.get('@decor/gateway') ?? []), '@decor/user']);
    planted.set('@decor/notification', [...(graph.get('@decor/notification') ?? []), '@decor/order']);
    planted.set('@decor/kit', [...(graph.get('@decor/kit') ?? []), '@decor/stack']);
    planted.set('@decor/cart', [...(graph.get('@decor/cart') ?? []), '@decor/testbed']);
    expect(forbiddenDependencies(planted, BOUNDED).sort()).toEqual([
      '@decor/cart → @decor/testbed',
      '@decor/gateway → @decor/user',
      '@decor/kit → @decor/stack',
      '@decor/notification → @decor/order',
    ]);
  });

  it('holds in every package.json: dependencies and devDependencies alike', () => {
    expect(forbiddenDependencies(graph, BOUNDED)).toEqual([]);
  });

  it('reads each kind of import, and not a package named in prose', () => {
    // Written with @x/ for @decor/ so that this file's own scan (below) does not read them.
    const text = [
      "import { userService } from '@x/user';",
      "import type { OrderContext } from '@x/order/testing';",
      'import {',
      '  freePort,',
      "} from '@x/stack';",
      "import '@x/cart';",
      "const c = await import('@x/catalogue');",
      "jest.mock('@x/notification');",
      "require('@x/gateway');",
      '// the kit does not depend on @x/stack, and @x/user is a service',
    ]
      .join('\n')
      .replaceAll('@x/', '@decor/');
    expect(importedPackages(text)).toEqual([
      '@decor/user',
      '@decor/order',
      '@decor/stack',
      '@decor/cart',
      '@decor/catalogue',
      '@decor/notification',
      '@decor/gateway',
    ]);
  });

  it('holds in every file of every service, the kit, contracts and the gateway (src, tests, tools)', () => {
    expect(forbiddenImports(BOUNDED)).toEqual([]);
  });
});

describe('dependencyLoops', () => {
  it('names each loop once with its members, and a self-dependency', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', ['e']],
      ['f', ['a']],
    ]);
    expect(dependencyLoops(g)).toEqual([['e'], ['a', 'b', 'c']]);
  });

  it('finds none in a graph without one (shared dependencies are not loops)', () => {
    const g = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
    ]);
    expect(dependencyLoops(g)).toEqual([]);
  });
});
