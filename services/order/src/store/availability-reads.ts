import type { SubRental } from '@decor/contracts';
import type { OrderContext } from '../context';

/** What the shop owns of each of these products (those the catalogue has sent). */
export const ownedUnits = (ctx: OrderContext, skus: readonly string[]) =>
  ctx.products.find({ _id: { $in: skus } }, { quantity: 1 }).lean();

/** The products of a month calendar (of a category, or all), by name, at most 500. */
export const calendarProducts = (ctx: OrderContext, category: string | undefined) =>
  ctx.products
    .find(category ? { category } : {}, { name: 1, quantity: 1, category: 1 })
    .sort({ name: 1 })
    .limit(500)
    .lean();

/** The names and units owned of these products. */
export const namedUnits = (ctx: OrderContext, skus: readonly string[]) =>
  ctx.products.find({ _id: { $in: skus } }, { name: 1, quantity: 1 }).lean();

/**
 * The DocNumbers of these bookings (a booking's id is its estimate's) and their recorded sub-rental
 * confirmations (on the estimate, or on its invoice when staff overbooked the invoice).
 */
export async function bookingsOf(
  ctx: OrderContext,
  ids: readonly string[],
): Promise<Map<string, { DocNumber: string; subRental: SubRental | null }>> {
  const valid = [...new Set(ids)].filter((id) => /^[a-f0-9]{24}$/.test(id));
  const [estimates, invoices] = await Promise.all([
    ctx.estimates.find({ _id: { $in: valid } }, { docNumber: 1, subRental: 1 }).lean(),
    ctx.invoices
      .find({ estimateId: { $in: valid }, subRental: { $ne: null } }, { estimateId: 1, subRental: 1 })
      .lean(),
  ]);
  const invoiced = new Map(invoices.map((i) => [i.estimateId, i.subRental ?? null]));
  return new Map(
    estimates.map((e) => {
      const id = e._id.toString();
      const records = [e.subRental, invoiced.get(id)].filter((r): r is SubRental => !!r);
      // The latest confirmation wins (ISO times compare as text).
      const subRental = records.sort((a, b) => b.at.localeCompare(a.at))[0] ?? null;
      return [id, { DocNumber: e.docNumber, subRental }];
    }),
  );
}
