/**
 * The race for the last units: 200 submissions of one product at once each need its buffers and
 * units owned. Asks for the same products at the same time share one read; a later ask reads again.
 */
import type { OrderContext } from '../src/context';
import { buffersOf } from '../src/store/order-bookings';

it('concurrent asks for the same products share one read of the products and their categories', async () => {
  let reads = 0;
  const answer = <T>(rows: T[]) => ({
    lean: async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return rows;
    },
  });
  const ctx = {
    products: { find: () => answer([{ _id: 'CHAIR', category: 'SEATING', quantity: 10 }]) },
    categories: { find: () => answer([{ name: 'SEATING', turnaround: { before: 2, after: 1 } }]) },
  } as unknown as OrderContext;

  const lookups = await Promise.all(
    Array.from({ length: 50 }, (_, i) => buffersOf(ctx, i % 2 ? ['CHAIR'] : ['CHAIR', 'CHAIR'])),
  );
  expect(reads).toBe(2);
  for (const lookup of lookups) {
    expect(lookup('CHAIR')).toEqual({ product: undefined, category: { before: 2, after: 1 }, owned: 10 });
  }
  await buffersOf(ctx, ['CHAIR']);
  expect(reads).toBe(4);
});
