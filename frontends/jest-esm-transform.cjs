/**
 * Jest transform for ESM-only packages (react-router 8): swc to CommonJS, with `import.meta.hot`
 * (a bundler-only probe that CommonJS cannot hold) replaced by undefined first.
 */
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({
  jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } },
  module: { type: 'commonjs' },
});

module.exports = {
  process(source, filename, options) {
    return swc.process(source.replace(/import\.meta\.hot/g, 'undefined'), filename, options);
  },
  getCacheKey(source, filename, options) {
    return `esm-${swc.getCacheKey(source, filename, options)}`;
  },
};
