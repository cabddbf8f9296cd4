import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { OrderConfig } from '../config';

/**
 * The signed agreements' PDFs in the shared object store (the catalogue's client pattern): private
 * objects, read back only by this service (the download route) and the notification service.
 */
export interface AgreementFiles {
  readonly client: S3Client;
  /** The key of one acceptance's PDF: the estimate and the acceptance's time name it. */
  keyOf(estimateId: string, acceptedAt: Date): string;
  put(key: string, body: Uint8Array): Promise<void>;
  /** The stored bytes; null when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  ensureBucket(): Promise<void>;
  close(): void;
}

export function agreementFiles(config: OrderConfig): AgreementFiles {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true, // the emulator and MinIO serve buckets as paths
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const Bucket = config.S3_BUCKET;
  return {
    client,
    keyOf: (estimateId, acceptedAt) =>
      `${config.AGREEMENT_KEY_PREFIX}/${estimateId}/${acceptedAt.getTime()}.pdf`,
    async put(key, body) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: 'application/pdf' }),
      );
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return null;
        throw err;
      }
    },
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch {
        await client.send(new CreateBucketCommand({ Bucket })).catch((err: { name?: string }) => {
          if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
        });
      }
    },
    close: () => client.destroy(),
  };
}
