// Writes to OUT_DIR the manifests a production install of one workspace needs: the root
// package.json narrowed to that workspace and the @decor/* workspaces it depends on (no root
// devDependencies), their package.json files, the lock file, and the tarballs or folders their
// `file:` dependencies name (services/accounting-sync/vendor/node-quickbooks). `npm install --omit=dev` there then installs
// exactly that closure's production dependencies at the lock file's versions.
//   node infra/cli/docker/only-workspace.cjs services/user /manifests
const fs = require('node:fs');
const path = require('node:path');

const [app, outDir] = process.argv.slice(2);
if (!app || !outDir) throw new Error('usage: only-workspace.cjs APP_DIR OUT_DIR');
const read = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const root = read('.');
const dirOf = new Map(root.workspaces.map((dir) => [read(dir).name, dir]));
const needed = new Set();
const visit = (dir) => {
  if (needed.has(dir)) return;
  needed.add(dir);
  for (const dep of Object.keys(read(dir).dependencies ?? {})) if (dirOf.has(dep)) visit(dirOf.get(dep));
};
if (!root.workspaces.includes(app)) throw new Error(`${app} is not a workspace`);
visit(app);
const { devDependencies: _dev, ...narrowed } = root;
narrowed.workspaces = [...needed];
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(narrowed, null, 2)}\n`);
fs.copyFileSync('package-lock.json', path.join(outDir, 'package-lock.json'));
for (const dir of needed) {
  fs.mkdirSync(path.join(outDir, dir), { recursive: true });
  fs.copyFileSync(path.join(dir, 'package.json'), path.join(outDir, dir, 'package.json'));
  const manifest = read(dir);
  const specs = ['dependencies', 'optionalDependencies', 'devDependencies'].flatMap((kind) =>
    Object.values(manifest[kind] ?? {}),
  );
  for (const spec of specs.filter((s) => s.startsWith('file:'))) {
    const from = path.join(dir, spec.slice('file:'.length));
    fs.cpSync(from, path.join(outDir, from), { recursive: true });
  }
}
console.log(`${app}: workspaces ${[...needed].join(', ')}`);
