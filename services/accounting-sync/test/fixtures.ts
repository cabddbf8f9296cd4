import { CompanyUpserted, EstimateSubmitted, ProductUpserted, UserCreated } from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
import { newId, publish, publishAll, type Sync } from './support';

/** A company, a customer under it and one product, all in QuickBooks: what an estimate needs. */
export async function customerWithProduct(sync: Sync, name: string) {
  const companyId = newId();
  const userId = newId();
  const sku = `SKU-${newId().slice(0, 8)}`;
  await publish(sync, CompanyUpserted, companyId, {
    companyId,
    name: `${name} Events`,
    displayName: `${name} Events`,
  });
  await publish(sync, UserCreated, userId, {
    userId,
    email: `${name.toLowerCase()}@decor.example`,
    displayName: `${name} Customer`,
    permissions: 'customer',
    companyId,
    firstName: name,
    lastName: 'Customer',
  });
  await publish(sync, ProductUpserted, sku, {
    sku,
    name: `${name} chair`,
    description: 'A chair',
    priceCents: 1_250,
    quantity: 100,
    category: 'CHAIRS',
    subcategory: 'Folding',
    images: [],
  });
  await eventually(
    async () => {
      const recs = await sync.ctx.records
        .find({ recordId: { $in: [companyId, userId, sku] }, qboId: { $ne: null } })
        .lean();
      return recs.length === 3 ? true : undefined;
    },
    30_000,
    `${name}'s records in QuickBooks`,
  );
  return { companyId, userId, sku };
}

/**
 * This file's estimate numbers: a sequence, since each test file has a QuickBooks company of its own.
 * Random ones repeated (two of 200 alike in 2-3 % of the resilience test's runs) and QuickBooks
 * refuses a second estimate with a number already used, which failed that job for good.
 */
let lastDocNumber = 100_000 + Math.floor(Math.random() * 400_000);
export const nextDocNumber = () => String(++lastDocNumber);

export function estimatePayload(
  estimateId: string,
  userId: string,
  sku: string,
  { email = 'buyer@decor.example', docNumber = nextDocNumber() } = {},
) {
  return {
    estimateId,
    docNumber,
    status: 'Pending' as const,
    userId,
    cartId: newId(),
    customer: { email, displayName: 'Buyer' },
    details: { groupName: 'Gala', eventDate: '2027-05-01', location: 'Hall' },
    lines: [
      { productId: sku, name: 'Chair', description: 'A chair', qty: 4, priceCents: 1_250, totalCents: 5_000 },
    ],
    subtotalCents: 5_000,
    truckingCents: 0,
    taxCents: 405,
    totalCents: 5_405,
    submittedAt: new Date().toISOString(),
  };
}

/** Publishes `count` submitted estimates and waits until the service has stored them all. */
export async function submittedEstimates(
  sync: Sync,
  userId: string,
  sku: string,
  count: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  // One batch, not one acked send each: 200 sends in a row took much of a loaded run's minute.
  await publishAll(
    sync,
    EstimateSubmitted,
    ids.map((id) => [id, estimatePayload(id, userId, sku)]),
  );
  await eventually(
    async () =>
      (await sync.ctx.records.countDocuments({ recordId: { $in: ids } })) === count ? true : undefined,
    30_000,
    `${count} estimates stored`,
  );
  return ids;
}
