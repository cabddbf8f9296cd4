import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';

/** Spec §3 Trucking fee (id, value): one document, kept in cents. */
export interface TruckingFee extends OutboxFields {
  _id: string;
  valueCents: number;
}

/** The id of the one trucking fee (the client reads it from GET /trucking and PUTs to it). */
export const TRUCKING_FEE_ID = '1';

const truckingSchema = new Schema<TruckingFee>(
  {
    _id: { type: String, required: true },
    valueCents: { type: Number, required: true, min: 0 },
  },
  { timestamps: true },
);
truckingSchema.plugin(outboxPlugin);

export type TruckingModel = Model<TruckingFee>;

export function truckingModel(connection: Connection): TruckingModel {
  return connection.model<TruckingFee>('TruckingFee', truckingSchema, 'trucking_fees');
}
