import type { Ref } from './types';

/** A deposit taken by the payment provider for an invoice (issue 30), as DepositCaptured told it. */
export interface DepositRecord {
  invoiceId: string;
  estimateId: string;
  docNumber: string;
  intentId: string;
  amountCents: number;
  capturedAt: string;
}

/**
 * The QuickBooks Payment of a deposit: received from the invoice's customer and applied in full to
 * that invoice. The provider's PaymentIntent is named in the note (PaymentRefNum holds 21 chars).
 */
export function depositPaymentDocument(d: DepositRecord, refs: { customer: Ref; invoiceQboId: string }) {
  const amount = d.amountCents / 100;
  return {
    CustomerRef: { value: refs.customer.value },
    TotalAmt: amount,
    TxnDate: d.capturedAt.slice(0, 10),
    PrivateNote: `Deposit for estimate ${d.docNumber} (${d.intentId})`,
    Line: [{ Amount: amount, LinkedTxn: [{ TxnId: refs.invoiceQboId, TxnType: 'Invoice' }] }],
  };
}

/** A refunded deposit, as EstimateDepositChanged told it (state 'refunded'). */
export interface DepositRefundRecord {
  intentId: string;
  docNumber: string;
  amountCents: number;
  refundedAt: string;
}

/** The QuickBooks RefundReceipt of a refunded deposit: the amount paid back, on the deposit item. */
export function depositRefundDocument(d: DepositRefundRecord, refs: { customer: Ref; depositItem: Ref }) {
  const amount = d.amountCents / 100;
  return {
    CustomerRef: { value: refs.customer.value },
    TxnDate: d.refundedAt.slice(0, 10),
    PrivateNote: `Deposit refunded for estimate ${d.docNumber} (${d.intentId})`,
    Line: [
      {
        Amount: amount,
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: { ItemRef: { value: refs.depositItem.value }, Qty: 1, UnitPrice: amount },
      },
    ],
  };
}
