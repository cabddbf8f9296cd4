import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';

/** The one QuickBooks company this site is connected to. */
export const CONNECTION_ID = 'quickbooks';

/**
 * The QuickBooks connection: ONE document, so a token rotation and its QboConnectionChanged event
 * are one write. Tokens are stored encrypted (see token-cipher.ts) and never leave this service.
 * `generation` grows with every stored token pair: a refresh that finds a newer generation than the
 * one it started from knows another process already refreshed.
 */
export interface QboConnectionDoc extends OutboxFields {
  _id: string;
  connected: boolean;
  realmId: string | null;
  companyName: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  accessExpiresAt: Date | null;
  refreshExpiresAt: Date | null;
  generation: number;
  connectedBy: string | null;
  /** Why the connection was last lost (people read it on /admin/sync). */
  lostReason: string | null;
  updatedAt: Date;
}

const connectionSchema = new Schema<QboConnectionDoc>(
  {
    _id: { type: String, required: true },
    connected: { type: Boolean, default: false },
    realmId: { type: String, default: null },
    companyName: { type: String, default: null },
    accessToken: { type: String, default: null },
    refreshToken: { type: String, default: null },
    accessExpiresAt: { type: Date, default: null },
    refreshExpiresAt: { type: Date, default: null },
    generation: { type: Number, default: 0 },
    connectedBy: { type: String, default: null },
    lostReason: { type: String, default: null },
  },
  { timestamps: { createdAt: false, updatedAt: true } },
);
connectionSchema.plugin(outboxPlugin);

export type QboConnectionModel = Model<QboConnectionDoc>;

export function qboConnectionModel(connection: Connection): QboConnectionModel {
  return connection.model<QboConnectionDoc>('QboConnection', connectionSchema, 'qbo_connection');
}

/** Used connect states (spec: one use): the unique _id refuses a replay even from two instances at once. */
export interface UsedConnectStateDoc {
  _id: string;
  userId: string;
  expiresAt: Date;
}

const usedStateSchema = new Schema<UsedConnectStateDoc>({
  _id: { type: String, required: true },
  userId: { type: String, required: true },
  expiresAt: { type: Date, required: true },
});

export type UsedConnectStateModel = Model<UsedConnectStateDoc>;

export function usedConnectStateModel(connection: Connection): UsedConnectStateModel {
  return connection.model<UsedConnectStateDoc>('UsedConnectState', usedStateSchema, 'qbo_used_states');
}
