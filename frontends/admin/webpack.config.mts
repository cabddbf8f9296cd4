import { frontendConfig } from '../webpack.shared.mts';

export default (_env: unknown, argv: { mode?: 'production' | 'development' }) =>
  frontendConfig({
    name: 'admin',
    role: 'remote',
    devPort: 3002,
    mode: argv.mode ?? 'production',
    exposes: { './BackOffice': './src/BackOffice.tsx', './Orders': './src/features/orders/routes.tsx' },
  });
