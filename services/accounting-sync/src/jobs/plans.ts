/**
 * What to write to QuickBooks for a record: its document, or the records it must wait for (a
 * customer waits for its company's QuickBooks id; an estimate for its customer and its products; a
 * deposit's Payment for its invoice, which staff send).
 */
import type { SyncedRecordKind } from '@decor/contracts';
import {
  type CategoryRecord,
  type CompanyRecord,
  type CustomerRecord,
  categoryItemDocument,
  companyCustomerDocument,
  type DepositRecord,
  type DepositRefundRecord,
  depositPaymentDocument,
  depositRefundDocument,
  type EstimateRecord,
  estimateDocument,
  invoiceDocument,
  jobCustomerDocument,
  type ProductRecord,
  productItemDocument,
  type Ref,
} from '../domain/documents';
import type { QboEntity, QboEntityName } from '../qbo/client';
import { recordKey, type SyncRecordDoc, type SyncRecordModel } from '../store/record-model';

export type Plan =
  | {
      entity: QboEntityName;
      doc: QboEntity /** how to find an existing one on a duplicate-name fault */;
      nameQuery?: string;
    }
  | { waitFor: Array<{ kind: SyncedRecordKind; recordId: string }> };

export interface PlanDeps {
  records: SyncRecordModel;
  /** QuickBooks id of a service item by name (Trucking, Labor), created when missing. */
  serviceItem(name: string): Promise<Ref>;
  truckingItemName: string;
  laborItemName: string;
}

/** The service item a refunded deposit is paid back on. */
export const DEPOSIT_ITEM = 'Deposit';

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

async function refsOf(records: SyncRecordModel, kind: SyncedRecordKind, ids: string[]) {
  const docs = await records
    .find({ _id: { $in: ids.map((id) => recordKey(kind, id)) } }, { recordId: 1, qboId: 1, label: 1 })
    .lean<Pick<SyncRecordDoc, 'recordId' | 'qboId' | 'label'>[]>();
  const found = new Map(
    docs.filter((d) => d.qboId).map((d) => [d.recordId, { value: d.qboId as string, name: d.label }]),
  );
  return { found, missing: ids.filter((id) => !found.has(id)) };
}

export async function planFor(record: SyncRecordDoc, deps: PlanDeps): Promise<Plan> {
  const { records } = deps;
  const data = record.data as Record<string, unknown>;
  switch (record.kind) {
    case 'company': {
      const doc = companyCustomerDocument(data as unknown as CompanyRecord);
      return { entity: 'Customer', doc, nameQuery: `where DisplayName = ${quote(String(doc.DisplayName))}` };
    }
    case 'customer': {
      const companyId = data.companyId as string | undefined;
      if (!companyId) {
        const doc = jobCustomerDocument(data as unknown as CustomerRecord, { value: '' });
        const { Job: _job, ParentRef: _parent, ...topLevel } = doc as QboEntity;
        return {
          entity: 'Customer',
          doc: topLevel,
          nameQuery: `where DisplayName = ${quote(String(doc.DisplayName))}`,
        };
      }
      const { found, missing } = await refsOf(records, 'company', [companyId]);
      if (missing.length) return { waitFor: [{ kind: 'company', recordId: companyId }] };
      const doc = jobCustomerDocument(data as unknown as CustomerRecord, found.get(companyId) as Ref);
      return { entity: 'Customer', doc, nameQuery: `where DisplayName = ${quote(String(doc.DisplayName))}` };
    }
    case 'category': {
      const parentId = data.parentId as string | undefined;
      let parentRef: Ref | undefined;
      if (parentId) {
        const { found, missing } = await refsOf(records, 'category', [parentId]);
        if (missing.length) return { waitFor: [{ kind: 'category', recordId: parentId }] };
        parentRef = found.get(parentId);
      }
      const doc = categoryItemDocument({ ...(data as unknown as CategoryRecord), parentRef });
      return { entity: 'Item', doc, nameQuery: `where Name = ${quote(String(doc.Name))}` };
    }
    case 'product': {
      const doc = productItemDocument(data as unknown as ProductRecord);
      return { entity: 'Item', doc, nameQuery: `where Name = ${quote(String(doc.Name))}` };
    }
    case 'estimate':
    case 'invoice': {
      const estimate = data as unknown as EstimateRecord & { userId: string; linkedEstimateId?: string };
      const customer = await refsOf(records, 'customer', [estimate.userId]);
      const productIds = [...new Set(estimate.lines.map((l) => l.productId))];
      const items = await refsOf(records, 'product', productIds);
      const waitFor = [
        ...customer.missing.map((recordId) => ({ kind: 'customer' as const, recordId })),
        ...items.missing.map((recordId) => ({ kind: 'product' as const, recordId })),
      ];
      if (waitFor.length) return { waitFor };
      const refs = {
        customer: customer.found.get(estimate.userId) as Ref,
        items: Object.fromEntries(items.found),
        truckingItem: await deps.serviceItem(deps.truckingItemName),
        laborItem: await deps.serviceItem(deps.laborItemName),
        customFields: { groupName: '1', eventTime: '2', location: '3' },
      };
      if (record.kind === 'estimate') return { entity: 'Estimate', doc: estimateDocument(estimate, refs) };
      let linked: string | undefined;
      if (estimate.linkedEstimateId) {
        const est = await refsOf(records, 'estimate', [estimate.linkedEstimateId]);
        linked = est.found.get(estimate.linkedEstimateId)?.value;
      }
      return { entity: 'Invoice', doc: invoiceDocument(estimate, refs, linked) };
    }
    case 'payment': {
      const deposit = data as unknown as DepositRecord & { userId: string };
      const invoice = await refsOf(records, 'invoice', [deposit.invoiceId]);
      const customer = await refsOf(records, 'customer', [deposit.userId]);
      const waitFor = [
        ...invoice.missing.map((recordId) => ({ kind: 'invoice' as const, recordId })),
        ...customer.missing.map((recordId) => ({ kind: 'customer' as const, recordId })),
      ];
      if (waitFor.length) return { waitFor };
      const refs = {
        customer: customer.found.get(deposit.userId) as Ref,
        invoiceQboId: (invoice.found.get(deposit.invoiceId) as Ref).value,
      };
      return { entity: 'Payment', doc: depositPaymentDocument(deposit, refs) };
    }
    case 'refund': {
      // Paid back only what QuickBooks shows received: it waits for the deposit's Payment.
      const refund = data as unknown as DepositRefundRecord & { userId: string };
      const payment = await refsOf(records, 'payment', [refund.intentId]);
      const customer = await refsOf(records, 'customer', [refund.userId]);
      const waitFor = [
        ...payment.missing.map((recordId) => ({ kind: 'payment' as const, recordId })),
        ...customer.missing.map((recordId) => ({ kind: 'customer' as const, recordId })),
      ];
      if (waitFor.length) return { waitFor };
      const refs = {
        customer: customer.found.get(refund.userId) as Ref,
        depositItem: await deps.serviceItem(DEPOSIT_ITEM),
      };
      return { entity: 'RefundReceipt', doc: depositRefundDocument(refund, refs) };
    }
  }
}
