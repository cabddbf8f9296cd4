import { type Connection, type Model, Schema } from 'mongoose';

export const ACCOUNTING_CONNECTION_ID = 'quickbooks';

/** What accounting-sync last announced about the QuickBooks connection (never a token). */
export interface AccountingConnection {
  _id: string;
  connected: boolean;
  realmId: string | null;
  /** occurredAt of the event applied last: an older (replayed) event changes nothing. */
  at: string;
}

const schema = new Schema<AccountingConnection>({
  _id: { type: String, required: true },
  connected: { type: Boolean, required: true },
  realmId: { type: String, default: null },
  at: { type: String, required: true },
});

export type AccountingConnectionModel = Model<AccountingConnection>;

export function accountingConnectionModel(connection: Connection): AccountingConnectionModel {
  return connection.model<AccountingConnection>('AccountingConnection', schema, 'accounting_connection');
}
