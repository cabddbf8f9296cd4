import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { NotificationConfig } from '../config';

/** Reads attachments' bytes from the shared object store (the catalogue's client settings). */
export interface StoredFiles {
  /** The object's bytes; null when there is none (an attachment gone for good). */
  get(key: string): Promise<Buffer | null>;
  close(): void;
}

export function storedFiles(config: NotificationConfig): StoredFiles {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true, // the emulator and MinIO serve buckets as paths
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return {
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: config.S3_BUCKET, Key: key }));
        return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return null;
        throw err;
      }
    },
    close: () => client.destroy(),
  };
}
