import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A presigned upload: the key this service signed for one product, the content type it signed and
 * the file name the admin picked. Only keys recorded here are attached (spec §7: the browser PUTs
 * straight to S3, then attaches the URLs); an attach claims them ('attaching'), the cleanup job
 * claims the unattached ones ('expired') and removes their files.
 */
export interface Upload {
  _id: string;
  sku: string;
  type: string;
  fileName: string;
  state: 'pending' | 'attaching' | 'expired';
  createdAt: Date;
  updatedAt: Date;
}

const uploadSchema = new Schema<Upload>(
  {
    _id: { type: String, required: true },
    sku: { type: String, required: true },
    type: { type: String, required: true },
    fileName: { type: String, required: true },
    state: { type: String, required: true, default: 'pending' },
  },
  { timestamps: true },
);
uploadSchema.index({ sku: 1 });

export type UploadModel = Model<Upload>;

export function uploadModel(connection: Connection): UploadModel {
  return connection.model<Upload>('Upload', uploadSchema, 'uploads');
}
