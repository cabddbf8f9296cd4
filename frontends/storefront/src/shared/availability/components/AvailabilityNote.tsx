import { type AvailabilityHint, availableOnText, type ProductAvailability } from '@decor/contracts/rules';
import { Spin } from '@decor/web-core/ui';
import { TEXTS } from '../../../texts';

/** A colour for each of contracts' hints (a new hint fails the type check here). */
const COLORS: Record<AvailabilityHint, string> = {
  'Not available': '#c0392b',
  'Only a few left': '#a35d00',
  Available: '#2e7d32',
};

/** One product's answer for the checked days: the number for signed-in users, else the hint. */
export function AvailabilityNote({
  availability,
  loading,
  failed,
}: {
  availability: ProductAvailability | undefined;
  loading: boolean;
  failed: boolean;
}) {
  if (loading)
    return (
      <span role="status" style={{ fontSize: 13, color: '#6b5d52' }}>
        <Spin size="small" /> {TEXTS.checkingAvailability}
      </span>
    );
  if (failed)
    return (
      <span role="status" style={{ fontSize: 13, color: '#c0392b' }}>
        {TEXTS.availabilityError}
      </span>
    );
  if (!availability) return null;
  const text =
    availability.available !== undefined && availability.day
      ? availableOnText(availability.available, availability.day)
      : availability.hint;
  return (
    <span
      data-testid="availability"
      style={{ fontSize: 14, fontWeight: 500, color: COLORS[availability.hint] }}
    >
      {text}
    </span>
  );
}
