import type { HoldingOrder } from '@decor/contracts/rules';
import { formatLongDate, subRentalText } from '@decor/contracts/rules';
import { Link } from '@decor/web-core/router';
import { Tag } from '@decor/web-core/ui-data';
import { AVAILABILITY_TEXTS as T } from '../texts';

/** Orders holding a product: a link to each order, its units, its days, and whether staff overbooked it. */
export function HoldsList({ holds }: { holds: (HoldingOrder & { first?: string; last?: string })[] }) {
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {holds.map((hold) => (
        <li key={hold.orderId} style={{ padding: '6px 0', borderBottom: '1px solid #f0e8dd' }}>
          <Link
            to={`/admin/orders/estimate/${encodeURIComponent(hold.orderId)}`}
            // Underlined: inside a line of text a link must not stand out by colour alone.
            style={{ textDecoration: 'underline' }}
          >
            {T.estimate(hold.DocNumber, hold.orderId)}
          </Link>{' '}
          — {T.units(hold.qty)}
          {hold.first && hold.last
            ? `, ${formatLongDate(hold.first)}${hold.last !== hold.first ? ` to ${formatLongDate(hold.last)}` : ''}`
            : ''}{' '}
          {hold.overbooked ? <Tag color="volcano">{T.overbooked}</Tag> : null}
          {hold.subRental ? (
            <div style={{ fontSize: 13, color: '#6b5a48' }}>{subRentalText(hold.subRental)}</div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
