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
