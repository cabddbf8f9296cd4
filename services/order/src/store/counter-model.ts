import { type Connection, type Model, Schema } from 'mongoose';

/** Named counters (the estimates' DocNumber). */
export interface Counter {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<Counter>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true, default: 0 } },
  { versionKey: false },
);

export type CounterModel = Model<Counter>;

export function counterModel(connection: Connection): CounterModel {
  return connection.model<Counter>('Counter', counterSchema, 'counters');
}
