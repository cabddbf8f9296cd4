import { type Connection, type Model, Schema } from 'mongoose';
import type { Hold } from '../domain/bookings';

/**
 * One product's bookings (`_id` is the SKU): every order's hold on it, and a version every write
 * checks and bumps, so two writers (two requests, two instances) never both book the last units.
 */
export interface Ledger {
  _id: string;
  version: number;
  holds: Hold[];
}

const holdSchema = new Schema<Hold>(
  {
    orderId: { type: String, required: true },
    qty: { type: Number, required: true, min: 1 },
    first: { type: String, required: true },
    last: { type: String, required: true },
    unconfirmed: { type: Boolean, required: true },
    heldAt: { type: Date, required: true },
    overbooked: { type: Boolean, required: true },
  },
  { _id: false, versionKey: false },
);

const ledgerSchema = new Schema<Ledger>(
  {
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    holds: { type: [holdSchema], default: [] },
  },
  { versionKey: false },
);
// The sweeper's question: which ledgers hold something not yet reconciled with its order.
ledgerSchema.index({ 'holds.unconfirmed': 1 });
ledgerSchema.index({ 'holds.orderId': 1 });

export type LedgerModel = Model<Ledger>;

export function ledgerModel(connection: Connection): LedgerModel {
  return connection.model<Ledger>('Ledger', ledgerSchema, 'ledgers');
}
