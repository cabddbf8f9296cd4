/**
 * Jest only (moduleNameMapper of the frontends project): '@ant-design/icons' with the exports of
 * its index, but each icon required when it is first read. The index requires all its icons (and
 * their SVG definitions, ~1,700 modules) as it loads: 3.7-4.4 s of each screen test file, which
 * uses about ten of them (webpack keeps only those in the bundles). The components are the
 * package's own modules, as antd itself requires them (`@ant-design/icons/StarFilled`).
 */
const { readdirSync } = require('node:fs');
const { dirname } = require('node:path');

const Context = require('@ant-design/icons/lib/components/Context');
const twoTone = require('@ant-design/icons/lib/components/twoTonePrimaryColor');
const IconFont = require('@ant-design/icons/lib/components/IconFont');
const Icon = require('@ant-design/icons/lib/components/Icon');

Object.defineProperty(exports, '__esModule', { value: true });
exports.IconProvider = Context.default.Provider;
exports.getTwoToneColor = twoTone.getTwoToneColor;
exports.setTwoToneColor = twoTone.setTwoToneColor;
exports.createFromIconfontCN = IconFont.default;
exports.default = Icon.default;

const icons = dirname(require.resolve('@ant-design/icons/lib/icons'));
for (const file of readdirSync(icons)) {
  const name = file.endsWith('.js') && file !== 'index.js' ? file.slice(0, -3) : null;
  if (!name) continue;
  Object.defineProperty(exports, name, {
    enumerable: true,
    get: () => require(`@ant-design/icons/lib/icons/${name}`).default,
  });
}
