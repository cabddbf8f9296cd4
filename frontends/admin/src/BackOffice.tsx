import { Result } from '@decor/web-core/ui-forms';

export const COMING_SOON = 'Back office — coming soon';

/** Placeholder of the admin remote: the shell already loads it for /admin/*. */
export default function BackOffice() {
  return (
    <Result
      status="info"
      title={COMING_SOON}
      subTitle="Users, companies, orders and the catalogue will be managed here."
    />
  );
}
