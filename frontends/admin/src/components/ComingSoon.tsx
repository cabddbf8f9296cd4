import { Result } from '@decor/web-core/ui-forms';

export const COMING_SOON = 'Back office — coming soon';

/** The back-office screens not built yet. */
export function ComingSoon() {
  return (
    <Result
      status="info"
      title={COMING_SOON}
      subTitle="Users, companies, orders and the catalogue will be managed here."
    />
  );
}
