import { frontendConfig } from '../webpack.shared.mts';

export default (_env: unknown, argv: { mode?: 'production' | 'development' }) =>
  frontendConfig({ name: 'shell', role: 'host', devPort: 3000, mode: argv.mode ?? 'production' });
