import { Result } from '@decor/web-core/ui-forms';

/** Orders after submission belong to the back-office issue; the route and its guard are in place. */
export default function Orders() {
  return <Result status="info" title="Orders" subTitle="Your orders will be listed here soon." />;
}
