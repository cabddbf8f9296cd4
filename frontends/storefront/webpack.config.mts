import { frontendConfig } from '../webpack.shared.mts';

export default (_env: unknown, argv: { mode?: 'production' | 'development' }) =>
  frontendConfig({
    name: 'storefront',
    role: 'remote',
    devPort: 3001,
    mode: argv.mode ?? 'production',
    exposes: {
      './Inventory': './src/screens/Inventory.tsx',
      './Checkout': './src/screens/Checkout.tsx',
      './Carts': './src/screens/Carts.tsx',
      './Profile': './src/screens/Profile.tsx',
      './Orders': './src/screens/Orders.tsx',
    },
  });
