import type { SyncedRecordKind } from '@decor/contracts';
import { type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A record of another service as this service last heard of it (from events), and where it stands
 * in QuickBooks. `_id` = `<kind>:<recordId>`. `revision` grows with every event about the record;
 * a job carries the revision it was enqueued for, and the outcome (qboId, SyncToken, the hash of
 * what was written) is stored with its QboRecordSynced event in one write.
 */
export interface SyncRecordDoc extends OutboxFields {
  _id: string;
  kind: SyncedRecordKind;
  recordId: string;
  /** The record's fields as the owning service published them. */
  data: Record<string, unknown>;
  /** What people recognise it by on /admin/sync (display name, SKU, DocNumber). */
  label: string;
  revision: number;
  qboId: string | null;
  syncToken: string | null;
  /** contentHash of the document last written, so the same content is not written again. */
  syncedHash: string | null;
  syncedRevision: number;
  /** The last failure QuickBooks gave for it (cleared by a success). */
  lastError: string | null;
  /**
   * When its service deleted it (UserDeleted, CompanyDeleted): no longer "on the site" for the import
   * listing; nothing is deleted in QuickBooks.
   */
  deletedAt: Date | null;
  updatedAt: Date;
}

const recordSchema = new Schema<SyncRecordDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    recordId: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: {} },
    label: { type: String, default: '' },
    revision: { type: Number, default: 0 },
    qboId: { type: String, default: null },
    syncToken: { type: String, default: null },
    syncedHash: { type: String, default: null },
    syncedRevision: { type: Number, default: -1 },
    lastError: { type: String, default: null },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: false, updatedAt: true }, minimize: false },
);
recordSchema.index({ kind: 1, qboId: 1 });
recordSchema.plugin(outboxPlugin);

export type SyncRecordModel = Model<SyncRecordDoc>;

export function syncRecordModel(connection: Connection): SyncRecordModel {
  return connection.model<SyncRecordDoc>('SyncRecord', recordSchema, 'sync_records');
}

export const recordKey = (kind: SyncedRecordKind, recordId: string) => `${kind}:${recordId}`;
