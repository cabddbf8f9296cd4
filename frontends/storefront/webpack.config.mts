import { frontendConfig } from '../webpack.shared.mts';

export default (_env: unknown, argv: { mode?: 'production' | 'development' }) =>
  frontendConfig({
    name: 'storefront',
    role: 'remote',
    devPort: 3001,
    mode: argv.mode ?? 'production',
    exposes: {
      './Inventory': './src/inventory.tsx',
      './Checkout': './src/features/checkout/routes.tsx',
      './Carts': './src/features/carts/routes.tsx',
      './Profile': './src/features/profile/routes.tsx',
      './Orders': './src/features/orders/routes.tsx',
    },
  });
