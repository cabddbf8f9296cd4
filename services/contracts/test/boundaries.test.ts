/**
 * The import rules of the tree (services/README.md), checked on the source files: facts contracts owns are
 * not written again elsewhere (and a frontend takes contracts' lists from `@decor/contracts/rules`
 * only), a frontend's feature imports no other feature, a domain has no HTTP, and a route file does
 * not import a route file.
 * Each rule fails with the offending files named.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import * as contracts from '../src';
import { ORDER_FIELDS, ORDER_STATUSES } from '../src';
import * as browserRules from '../src/rules';

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

/**
 * The lists contracts owns (fields, statuses, actions, roles…): every exported array or set, or record
 * of arrays, of the package — read from contracts itself, so a new list is covered without a change here.
 */
const isList = (value: unknown): boolean =>
  Array.isArray(value) ||
  value instanceof Set ||
  (!!value &&
    typeof value === 'object' &&
    Object.values(value).length > 0 &&
    Object.values(value).every((v) => Array.isArray(v)));
const CONTRACT_LISTS = new Set(
  Object.entries({ ...contracts, ...browserRules })
    .filter(([, value]) => isList(value))
    .map(([name]) => name),
);
const BROWSER_ENTRY = '@decor/contracts/rules';

/**
 * What is wrong with a frontend file's use of contracts' lists: importing one from any module but
 * `@decor/contracts/rules` (a re-export elsewhere is a second source), re-exporting one, declaring a
 * binding of the same name (its own copy), or importing contracts' server entry.
 */
function frontendListProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(/\b(import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const [, kind, names = '', from] = m;
    const listed = names
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] as string,
      )
      .filter((n) => CONTRACT_LISTS.has(n));
    for (const name of listed) {
      if (kind === 'export') problems.push(`${file}: re-exports ${name} (import it from ${BROWSER_ENTRY})`);
      else if (from !== BROWSER_ENTRY)
        problems.push(`${file}: imports ${name} from '${from}', not ${BROWSER_ENTRY}`);
    }
  }
  if (new RegExp(`\\bexport\\s+\\*\\s+from\\s+'${BROWSER_ENTRY}'`).test(text)) {
    problems.push(`${file}: re-exports all of ${BROWSER_ENTRY}`);
  }
  if (/from\s+'@decor\/contracts'/.test(text)) {
    problems.push(`${file}: imports @decor/contracts (browsers use ${BROWSER_ENTRY})`);
  }
  for (const m of text.matchAll(
    /^\s*(?:export\s+)?(?:declare\s+)?(?:const|let|var|function|class|enum|type|interface)\s+([A-Z][A-Z0-9_]*)\b/gm,
  )) {
    if (CONTRACT_LISTS.has(m[1] as string)) problems.push(`${file}: declares its own ${m[1]}`);
  }
  return problems;
}

describe('a frontend takes the lists contracts owns from @decor/contracts/rules only', () => {
  it('knows the lists', () => {
    for (const name of ['ORDER_FIELDS', 'ORDER_STATUSES', 'TERMINAL_STATUSES', 'PERMISSIONS', 'UI_ACTIONS']) {
      expect(CONTRACT_LISTS).toContain(name);
    }
  });

  it('refuses a planted violation of each kind, and lets the right import pass', () => {
    const planted = (text: string) => frontendListProblems('frontends/x/src/planted.ts', text);
    expect(planted("import { ORDER_STATUSES, formLabel } from '@decor/contracts/rules';")).toEqual([]);
    expect(planted("import { ORDER_STATUSES } from '@decor/web-core';")).toHaveLength(1);
    expect(planted("import { ORDER_FIELDS as F } from '../fields';")).toHaveLength(1);
    expect(planted("import { type PERMISSIONS } from './roles';")).toHaveLength(1);
    expect(planted("export { WILL_CALL_FIELDS } from '@decor/contracts/rules';")).toHaveLength(1);
    expect(planted("export * from '@decor/contracts/rules';")).toHaveLength(1);
    expect(planted("import { addDays } from '@decor/contracts';")).toHaveLength(1);
    expect(planted('export const ORDER_STATUSES = statuses();')).toHaveLength(1);
    expect(planted('const TERMINAL_STATUSES = new Set(terminal);')).toHaveLength(1);
  });

  it('holds in every frontend source file', () => {
    const frontends = ALL.filter((f) => f.startsWith('frontends/'));
    expect(frontends.length).toBeGreaterThan(50);
    expect(frontends.flatMap((f) => frontendListProblems(f, read(join(ROOT, f))))).toEqual([]);
  });
});

/** A frontend's feature folder: `frontends/<app>/src/features/<feature>/`. */
const FEATURE = /^frontends\/[^/]+\/src\/features\/[^/]+\//;
const featureOf = (file: string) => FEATURE.exec(file)?.[0];

/**
 * The files a source imports by relative path (static, dynamic, re-exports), resolved among `files`
 * (an import that resolves to none is kept as written: a reach-in to a moved file still counts).
 */
function localImports(file: string, files: ReadonlyMap<string, string>): string[] {
  const text = files.get(file) ?? '';
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g)) {
    const base = posix.join(posix.dirname(file), m[1] as string);
    const target = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
      .map((ext) => base + ext)
      .find((f) => files.has(f));
    found.push(target ?? base);
  }
  return found;
}

/**
 * The zones of a frontend (bulletproof-react): a file of `src/features/<name>/` imports its own
 * feature's files, the frontend's code outside the features (`src/shared/`, texts, hooks) and packages
 * (`@decor/web-core`, `@decor/contracts/rules`, `@decor/web-orders` through their public entries) —
 * never another feature, directly or through a file outside the features (the route table, say);
 * what two features use lives in `src/shared/`, and the app's own files (bootstrap, routes) compose
 * the features. Each reach-in is named with the way it goes.
 */
function featureReachIns(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const file of files.keys()) {
    const own = featureOf(file);
    if (!own) continue;
    const seen = new Set<string>();
    const walk = (from: string, path: string[]) => {
      for (const target of localImports(from, files)) {
        if (target.startsWith(own) && path.length === 0) continue;
        if (featureOf(target)) {
          problems.push([file, ...path, target].join(' -> '));
        } else if (!seen.has(target)) {
          seen.add(target);
          walk(target, [...path, target]);
        }
      }
    };
    walk(file, []);
  }
  return problems;
}

/** A file in a frontend's `src/shared/` imports no feature (shared code is below the features). */
const sharedReachIns = (files: ReadonlyMap<string, string>) =>
  [...files.keys()]
    .filter((file) => /^frontends\/[^/]+\/src\/shared\//.test(file))
    .flatMap((file) =>
      localImports(file, files)
        .filter((t) => featureOf(t))
        .map((t) => `${file} -> ${t}`),
    );

describe("a frontend's feature imports its own folder, shared code and packages only", () => {
  it('refuses a planted reach-in of each kind, and lets the allowed imports pass', () => {
    const app = 'frontends/x/src';
    const tree = (extra: Record<string, string>) =>
      new Map(
        Object.entries({
          [`${app}/texts.ts`]: '',
          [`${app}/shared/CartView.tsx`]: "import { TEXTS } from '../texts';",
          [`${app}/features/carts/components/Cart.tsx`]: '',
          [`${app}/features/checkout/components/Summary.tsx`]: '',
          [`${app}/features/checkout/routes.tsx`]:
            "import { Summary } from './components/Summary';\nimport { CartView } from '../../shared/CartView';\nimport { api } from '@decor/web-core';",
          [`${app}/routes.tsx`]: "export const Checkout = lazy(() => import('./features/checkout/routes'));",
          ...extra,
        }),
      );
    expect(featureReachIns(tree({}))).toEqual([]);
    expect(sharedReachIns(tree({}))).toEqual([]);
    const cart = `${app}/features/carts/components/Cart.tsx`;
    const direct = tree({ [cart]: "import { Summary } from '../../checkout/components/Summary';" });
    expect(featureReachIns(direct)).toEqual([`${cart} -> ${app}/features/checkout/components/Summary.tsx`]);
    const viaApp = tree({ [cart]: "import { Checkout } from '../../../routes';" });
    expect(featureReachIns(viaApp)).toEqual([
      `${cart} -> ${app}/routes.tsx -> ${app}/features/checkout/routes.tsx`,
    ]);
    const dynamic = tree({ [cart]: "const S = lazy(() => import('../../checkout/routes'));" });
    expect(featureReachIns(dynamic)).toHaveLength(1);
    const reexport = tree({ [cart]: "export { Summary } from '../../checkout/components/Summary';" });
    expect(featureReachIns(reexport)).toHaveLength(1);
    const gone = tree({ [cart]: "import { CartView } from '../../checkout/components/CartView';" });
    expect(featureReachIns(gone)).toEqual([`${cart} -> ${app}/features/checkout/components/CartView`]);
    const typeOnly = tree({ [cart]: "import type { Summary } from '../../checkout/components/Summary';" });
    expect(featureReachIns(typeOnly)).toHaveLength(1);
    const sharedUp = tree({
      [`${app}/shared/CartView.tsx`]: "import { Summary } from '../features/checkout/components/Summary';",
    });
    expect(sharedReachIns(sharedUp)).toHaveLength(1);
  });

  const frontendFiles = new Map(
    ALL.filter((f) => f.startsWith('frontends/')).map((f) => [f, read(join(ROOT, f))] as const),
  );

  it('finds the features of every frontend', () => {
    const features = new Set([...frontendFiles.keys()].map(featureOf).filter(Boolean));
    for (const app of ['shell', 'storefront', 'admin', 'orders']) {
      expect([...features].some((f) => f?.startsWith(`frontends/${app}/`))).toBe(true);
    }
  });

  it('holds in every frontend: no feature reaches into another', () => {
    expect(featureReachIns(frontendFiles)).toEqual([]);
  });

  it('holds in every frontend: shared code imports no feature', () => {
    expect(sharedReachIns(frontendFiles)).toEqual([]);
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

/**
 * The mongoose model methods a route may not call: reads and writes live in the service's `store/`,
 * the routes parse, call and answer (issue 29).
 */
const MODEL_METHODS = [
  'find',
  'findOne',
  'findById',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'findByIdAndDelete',
  'updateOne',
  'updateMany',
  'replaceOne',
  'insertMany',
  'create',
  'aggregate',
  'countDocuments',
  'estimatedDocumentCount',
  'exists',
  'distinct',
  'deleteOne',
  'deleteMany',
  'bulkWrite',
  'watch',
];

/**
 * Each model call in a route file, named `<file>:<line> <call>`: a method above called on one of the
 * context's collections (`ctx.products.find(`, across line breaks too), on a model picked by a helper
 * (`modelOf(…).findById(`) or on a `…Model` binding (`ProductModel.findOne(`); a model handed to the
 * kit's `findList(`; or a model factory imported from a store's `*-model` file.
 */
function modelCallsInRoute(file: string, text: string): string[] {
  const methods = MODEL_METHODS.join('|');
  const patterns = [
    new RegExp(`\\bctx\\s*\\.\\s*\\w+\\s*\\.\\s*(?:${methods})\\s*[(<]`, 'g'),
    new RegExp(`\\bmodelOf\\s*\\([^)]*\\)\\s*\\.\\s*(?:${methods})\\s*[(<]`, 'g'),
    new RegExp(`\\b\\w+Model\\s*\\.\\s*(?:${methods})\\s*[(<]`, 'g'),
    /\bfindList\s*\(/g,
    /\bimport\s*\{[^}]*\b\w+[mM]odel\b[^}]*\}\s*from\s*'[^']*\/store\/[^']*-model'/g,
  ];
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((m) => {
      const line = text.slice(0, m.index).split('\n').length;
      return `${file}:${line} ${m[0].replace(/\s+/g, ' ')}`;
    }),
  );
}

describe('a route calls no model', () => {
  const routes = ALL.filter((f) => /^services\/[^/]+\/src\/routes\//.test(f));

  it('checks the routes of every service', () => {
    for (const service of ['user', 'catalogue', 'cart', 'order', 'accounting-sync']) {
      expect(routes.some((f) => f.startsWith(`services/${service}/src/routes/`))).toBe(true);
    }
  });

  it('refuses a planted model call of each kind, and lets store calls and type imports pass', () => {
    const planted = (text: string) => modelCallsInRoute('services/x/src/routes/planted.ts', text);
    expect(planted("const p = await findProduct(ctx, sku);\nconst c = await ctx.cache.get('k');")).toEqual(
      [],
    );
    expect(planted("import { type Estimate, orderRecord } from '../store/estimate-model';")).toEqual([]);
    expect(planted('await ctx.images.head(key); ctx.imageQueue.add(job);')).toEqual([]);
    expect(planted('const doc = await ctx.estimates.findOne({ idempotencyScope }).lean();')).toEqual([
      'services/x/src/routes/planted.ts:1 ctx.estimates.findOne(',
    ]);
    expect(planted('const p = await ctx.products\n  .find({})\n  .lean();')).toEqual([
      'services/x/src/routes/planted.ts:1 ctx.products .find(',
    ]);
    expect(planted('await ctx.uploads.create({ _id: key });')).toHaveLength(1);
    expect(planted('await ctx.ledgers.aggregate<Row>([]);')).toHaveLength(1);
    expect(planted('await modelOf(ctx, type).findById(id, HIDDEN);')).toHaveLength(1);
    expect(planted('await ProductModel.countDocuments({});')).toHaveLength(1);
    expect(planted('await findList(modelOf(ctx, type), query, spec);')).toHaveLength(1);
    expect(planted("import { productModel } from '../store/product-model';")).toHaveLength(1);
  });

  it('holds in services/*/src/routes', () => {
    expect(routes.flatMap((f) => modelCallsInRoute(f, read(join(ROOT, f))))).toEqual([]);
  });
});
