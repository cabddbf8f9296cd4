/**
 * The one webpack configuration of the three frontends (shell = host, storefront and admin = remotes).
 * Each frontends/<app>/webpack.config.ts calls frontendConfig() with what differs.
 *
 * Module federation rules (see frontends/README.md):
 * - every app's entry is an async boundary, so shared modules are never consumed eagerly: a remote's is
 *   `import('./bootstrap')`, the shell's starts in parts (shell/src/index.ts);
 * - the shell PROVIDES the shared singletons, the remotes only CONSUME them (`import: false`): a remote
 *   never carries its own React, router, redux or antd. assertNoBundledCopies fails a remote's build if
 *   one of them slipped in anyway;
 * - antd reaches the remotes through @decor/web-core/ui and /ui-data (re-exports of the antd components
 *   we use), shared as singletons: one tree-shaken antd, one ConfigProvider and theme;
 * - remote locations are NOT in the build: the shell reads /remotes.json at run time;
 * - no type fetching (`dts: false`) and nothing else that reaches the network.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { EsbuildPlugin } from 'esbuild-loader';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MinimizerPlugin from 'minimizer-webpack-plugin';
import type { Compiler, Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';

const require = createRequire(import.meta.url);
const FRONTENDS = import.meta.dirname;
export const GATEWAY_URL = process.env.DECOR_GATEWAY_URL ?? 'http://127.0.0.1:8080';

const versionOf = (pkg: string): string => {
  const name = pkg.startsWith('@') ? pkg.split('/').slice(0, 2).join('/') : (pkg.split('/')[0] as string);
  return (require(path.join(FRONTENDS, '..', 'node_modules', name, 'package.json')) as { version: string })
    .version;
};

/** Third-party singletons: the shell provides them, remotes consume them. */
export const SHARED_LIBRARIES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-redux',
  '@reduxjs/toolkit',
  '@reduxjs/toolkit/query',
  '@reduxjs/toolkit/query/react',
] as const;

/** Our own shared packages: the store, axios client, RTK Query api, and the antd barrels. */
export const SHARED_OWN = [
  '@decor/web-core',
  '@decor/web-core/ui',
  '@decor/web-core/ui-forms',
  '@decor/web-core/ui-data',
  '@decor/web-core/ui-dates',
  '@decor/web-core/router',
] as const;

type Shared = Record<
  string,
  {
    singleton: true;
    requiredVersion: string | false;
    import?: false;
    version?: string;
    strictVersion?: boolean;
  }
>;

export function sharedConfig(role: 'host' | 'remote'): Shared {
  const shared: Shared = {};
  for (const lib of SHARED_LIBRARIES) {
    shared[lib] = { singleton: true, requiredVersion: `^${versionOf(lib)}` };
  }
  for (const own of SHARED_OWN)
    shared[own] = { singleton: true, requiredVersion: '^0.1.0', version: '0.1.0' };
  // antd and the router are reached only through @decor/web-core/{ui*,router} (tree-shaken singletons).
  // A remote importing them directly finds no provider and fails loudly instead of bundling a second
  // copy (AssertNoBundledCopies refuses such a build as well).
  const throughBarrels = ['antd', 'react-router'];
  if (role === 'remote') {
    for (const lib of throughBarrels)
      shared[lib] = { singleton: true, requiredVersion: `^${versionOf(lib)}` };
    for (const key of Object.keys(shared)) (shared[key] as { import?: false }).import = false;
  }
  return shared;
}

/** A remote that bundles its own React/antd/redux/router breaks hooks and theming: refuse the build. */
class AssertNoBundledCopies {
  apply(compiler: Compiler): void {
    compiler.hooks.afterCompile.tap('AssertNoBundledCopies', (compilation) => {
      const forbidden =
        /[\\/]node_modules[\\/](react|react-dom|react-router|react-redux|@reduxjs[\\/]toolkit|antd|@ant-design[\\/](icons|cssinjs)|axios)[\\/]/;
      const offenders = new Set<string>();
      for (const module of compilation.modules) {
        const resource = (module as { resource?: string }).resource;
        if (resource && forbidden.test(resource)) offenders.add(path.relative(FRONTENDS, resource));
      }
      if (offenders.size > 0) {
        compilation.errors.push(
          new compiler.webpack.WebpackError(
            `a remote must not bundle shared libraries; found:\n  ${[...offenders].slice(0, 10).join('\n  ')}`,
          ),
        );
      }
    });
  }
}

/**
 * Where the shell finds each remote, read at run time (GET /remotes.json), so a remote can move or be
 * redeployed without rebuilding the shell. A deployment may replace the file; the build writes the
 * gateway's layout.
 */
export const DEFAULT_REMOTES = {
  storefront: '/remotes/storefront/remoteEntry.js',
  admin: '/remotes/admin/remoteEntry.js',
};

class EmitRemotesManifest {
  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('EmitRemotesManifest', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'EmitRemotesManifest', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const json = `${JSON.stringify(DEFAULT_REMOTES, null, 2)}\n`;
          compilation.emitAsset('remotes.json', new compiler.webpack.sources.RawSource(json));
        },
      );
    });
  }
}

/**
 * V8's explicit compile hint (issue 31): a script starting with `//# allFunctionsCalledOnLoad` has all
 * its functions compiled while it streams in, off the main thread, instead of each one on the main
 * thread at its first call. A chunk of ours is loaded to run at once (a page's libraries, a screen
 * about to show), so the start no longer compiles React, antd and the store in the tasks that run
 * them: on the public pages' cold loads, a fifth less main-thread time after the first paint. Added
 * after minification (which drops comments), before the source maps are made.
 */
class CompileHints {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('CompileHints', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CompileHints', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        (assets) => {
          for (const name of Object.keys(assets)) {
            if (!name.endsWith('.js')) continue;
            compilation.updateAsset(
              name,
              (source) => new sources.ConcatSource('//# allFunctionsCalledOnLoad\n', source),
            );
          }
        },
      );
    });
  }
}

const entryFilename = (pathData: { chunk?: { contentHash?: Record<string, string> } }): string =>
  pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';

export interface FrontendOptions {
  /** Folder name under frontends/ and the federation container name. */
  name: 'shell' | 'storefront' | 'admin';
  role: 'host' | 'remote';
  /** Remotes: what they expose ('./Checkout': './src/features/checkout/routes.tsx'). */
  exposes?: Record<string, string>;
  /** Port of `npm run dev`. */
  devPort: number;
  mode: 'production' | 'development';
}

export function frontendConfig(
  options: FrontendOptions,
): Configuration & { devServer: DevServerConfiguration } {
  const { name, role, mode } = options;
  const root = path.join(FRONTENDS, name);
  const production = mode === 'production';
  // The gateway serves the shell at / and each remote under /remotes/<name>/.
  // A remote's chunks load next to its remoteEntry.js ('auto'), wherever it is deployed.
  const publicPath = role === 'host' ? '/' : `/remotes/${name}/`;
  return {
    mode,
    context: root,
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(root, 'dist'),
      publicPath: role === 'host' ? '/' : 'auto',
      // The federation runtime asks for the entry's file name before hashes exist (only to know its
      // folder depth): it gets the unhashed name then, the emitted file the hashed one.
      filename: production ? entryFilename : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      uniqueName: `decor_${name}`,
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /[\\/]node_modules[\\/]/,
          loader: 'esbuild-loader',
          options: { loader: 'tsx', target: 'es2022', jsx: 'automatic' },
        },
        { test: /\.(png|jpe?g|svg|webp)$/i, type: 'asset/resource' },
      ],
    },
    optimization: {
      minimize: production,
      // format: undefined — the default IIFE wrapper hides a remote's container global.
      minimizer: [
        process.env.DECOR_MINIFIER === 'esbuild'
          ? new EsbuildPlugin({ target: 'es2022', format: undefined, css: false, legalComments: 'none' })
          : new MinimizerPlugin({
              minify: MinimizerPlugin.swcMinify,
              minimizerOptions: { compress: { passes: 2 }, mangle: true },
            }),
      ],
      // The libraries every page of the shell runs, a file each group instead of a file per package
      // (issue 31): fewer requests, and fewer of the federation runtime's loads in a phone's first task.
      ...(role === 'host'
        ? {
            splitChunks: {
              cacheGroups: {
                react: {
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
                  name: 'react',
                  chunks: 'async' as const,
                  priority: 30,
                  enforce: true,
                },
                state: {
                  test: /[\\/]node_modules[\\/](@reduxjs[\\/]toolkit|@standard-schema|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store)[\\/]/,
                  name: 'state',
                  chunks: 'async' as const,
                  priority: 30,
                  enforce: true,
                },
              },
            },
          }
        : {}),
      moduleIds: production ? 'deterministic' : 'named',
      chunkIds: production ? 'deterministic' : 'named',
    },
    performance: { hints: false },
    infrastructureLogging: { level: 'warn' },
    stats: production ? 'errors-warnings' : 'minimal',
    plugins: [
      new ModuleFederationPlugin({
        name,
        ...(role === 'remote' ? { filename: 'remoteEntry.js', exposes: options.exposes ?? {} } : {}),
        shared: sharedConfig(role),
        // Remotes are registered at run time from /remotes.json; nothing loads before a route needs it.
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
        dev: { disableLiveReload: true, disableHotTypesReload: true, disableDynamicRemoteTypeHints: true },
      }),
      ...(role === 'host'
        ? [
            new HtmlWebpackPlugin({
              template: path.join(root, 'index.html'),
              scriptLoading: 'defer',
              minify: production,
            }),
            new EmitRemotesManifest(),
          ]
        : [new AssertNoBundledCopies()]),
      ...(production ? [new CompileHints()] : []),
    ],
    devServer: {
      port: options.devPort,
      host: '127.0.0.1',
      hot: true,
      liveReload: true,
      historyApiFallback: role === 'host',
      static: false,
      devMiddleware: { publicPath },
      client: { overlay: { errors: true, warnings: false } },
      headers: { 'Access-Control-Allow-Origin': '*' },
      // Everything this dev server does not build comes from the running product (npm start).
      proxy: [
        {
          context: (pathname: string) =>
            role === 'host'
              ? pathname.startsWith('/api') || pathname.startsWith('/remotes/')
              : !pathname.startsWith(publicPath) && !pathname.startsWith('/ws'),
          target: GATEWAY_URL,
          changeOrigin: false,
        },
      ],
    },
  };
}
