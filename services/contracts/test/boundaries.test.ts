/**
 * The import rules of the tree (root README), checked on the source files: facts contracts owns are
 * not written again elsewhere, a domain has no HTTP, and a route file does not import a route file.
 * Each rule fails with the offending files named.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ORDER_FIELDS, ORDER_STATUSES } from '../src';

const ROOT = resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const inDirs = (parent: string, sub: string) =>
  readdirSync(join(ROOT, parent)).flatMap((name) => sources(join(ROOT, parent, name, sub)));
const rel = (path: string) => relative(ROOT, path);
const read = (path: string) => readFileSync(path, 'utf8');

/** Every source file of the servers and frontends but contracts' own. */
const ALL = [
  ...inDirs('services', 'src'),
  ...inDirs('frontends', 'src'),
  ...sources(join(ROOT, 'gateway/src')),
]
  .filter((f) => !rel(f).startsWith('services/contracts/'))
  .map(rel);

it('finds the tree', () => {
  expect(ALL.length).toBeGreaterThan(100);
});

describe('a fact contracts owns is written there only', () => {
  const fieldNames = ORDER_FIELDS.map((f) => f.name);

  it('no file declares the order fields again (3 or more of them as keys or string literals)', () => {
    const copies = ALL.filter((file) => {
      const text = read(join(ROOT, file));
      const declared = fieldNames.filter((name) =>
        new RegExp(`(^\\s*${name}\\??\\s*:)|('${name}')`, 'm').test(text),
      );
      return declared.length >= 3;
    });
    expect(copies).toEqual([]);
  });

  it('no file lists order statuses of its own (two status literals in a list or union)', () => {
    const status = `'(?:${ORDER_STATUSES.join('|')})'`;
    const list = new RegExp(`${status}\\s*[,|]\\s*${status}`);
    expect(ALL.filter((file) => list.test(read(join(ROOT, file))))).toEqual([]);
  });
});

describe('a domain has no HTTP', () => {
  const domains = ALL.filter((f) => /^services\/[^/]+\/src\/domain\//.test(f));
  const http =
    /from '(?:fastify|@fastify\/[^']+|fastify-plugin)'|import\s*{[^}]*\b(?:HttpError|badRequest|notFound|conflict|forbidden|unauthorized|unprocessable|serviceUnavailable)\b[^}]*}\s*from '@decor\/kit'/;

  it('checks the domains', () => {
    expect(domains.length).toBeGreaterThan(20);
  });

  it('imports neither Fastify nor the kit HTTP errors in services/*/src/domain', () => {
    expect(domains.filter((f) => http.test(read(join(ROOT, f))))).toEqual([]);
  });
});

describe('a route file does not import another route file', () => {
  /** A route file registers routes; the routes folder's helpers (schemas, answers, texts) do not. */
  const registers = (file: string) =>
    /\bapp\.(?:get|post|put|patch|delete|route)\(/.test(read(join(ROOT, file)));
  const routeDirs = ALL.filter((f) => /^services\/[^/]+\/src\/routes\/[^/]+\.ts$/.test(f));

  it('keeps each route file to helpers, domain and store', () => {
    const found: string[] = [];
    for (const file of routeDirs) {
      for (const match of read(join(ROOT, file)).matchAll(/from '\.\/([^']+)'/g)) {
        const target = `${file.slice(0, file.lastIndexOf('/'))}/${match[1]}.ts`;
        if (ALL.includes(target) && registers(target)) found.push(`${file} -> ${match[1]}.ts`);
      }
    }
    expect(found).toEqual([]);
  });
});
