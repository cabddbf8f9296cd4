import { Link } from '@decor/web-core/router';
import { Result } from '@decor/web-core/ui-forms';
import { HOME_TEXTS } from '../texts';

/** An /admin/* path that names no screen: said so inside the back office, with the way back. */
export function AdminNotFound() {
  return (
    <Result status="404" title={HOME_TEXTS.notFound} extra={<Link to="/admin">{HOME_TEXTS.backHome}</Link>} />
  );
}
