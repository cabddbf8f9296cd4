/**
 * The workspaces' dependency graph (every package.json of the root's workspaces, dependencies and
 * devDependencies alike) has no loop: a package never needs, even for its tests, a package that
 * needs it. The local stack the kit's test helpers use depends on no service.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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

describe('the workspaces’ dependency graph', () => {
  it('reads every workspace', () => {
    expect(graph.size).toBe(manifest(ROOT).workspaces?.length);
    expect(graph.get('@decor/kit')).toContain('@decor/stack');
  });

  it('has no loop', () => {
    expect(dependencyLoops(graph)).toEqual([]);
  });

  it('keeps the local stack and the two emulators free of every service and script', () => {
    expect([...reach(graph, '@decor/stack')].sort()).toEqual([
      '@decor/payments-emulator',
      '@decor/qbo-emulator',
    ]);
    expect([...reach(graph, '@decor/qbo-emulator')]).toEqual([]);
    expect([...reach(graph, '@decor/payments-emulator')]).toEqual([]);
  });

  it('finds a loop planted in it: the stack depending back on the kit', () => {
    const planted = new Map(graph);
    planted.set('@decor/stack', [...(graph.get('@decor/stack') ?? []), '@decor/kit']);
    const loops = dependencyLoops(planted);
    expect(loops).toHaveLength(1);
    expect(loops[0]).toEqual(expect.arrayContaining(['@decor/kit', '@decor/stack']));
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
