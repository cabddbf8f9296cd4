import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { CatalogueConfig } from '../config';

/** Product image files in S3; browsers load them straight from the bucket's public URL. */
export interface ImageStore {
  readonly client: S3Client;
  /** The URL a browser loads `key` from: <S3_PUBLIC_URL>/<key>. */
  publicUrl(key: string): string;
  /** A key under this deployment's image folder. */
  key(...parts: string[]): string;
  put(key: string, body: Uint8Array | string, contentType: string): Promise<void>;
  /** Creates the bucket when it is missing (local runs; production buckets are made by operations). */
  ensureBucket(): Promise<void>;
  deleteKeys(keys: string[]): Promise<void>;
  close(): void;
}

export function imageStore(config: CatalogueConfig): ImageStore {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    // The emulator and MinIO serve buckets as paths, not as subdomains.
    forcePathStyle: true,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    // Presigned uploads (later) fail with the SDK's default empty-body CRC32 (STACK-NOTES).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const bucket = config.S3_BUCKET;
  const base = config.S3_PUBLIC_URL.replace(/\/+$/, '');
  return {
    client,
    publicUrl: (key) => `${base}/${key.split('/').map(encodeURIComponent).join('/')}`,
    key: (...parts) => [config.S3_KEY_PREFIX, ...parts].join('/'),
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          // Keys carry a hash of the content: a changed image gets a new key, so browsers may keep them.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch {
        await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((err: { name?: string }) => {
          if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
        });
      }
    },
    async deleteKeys(keys) {
      if (keys.length === 0) return;
      await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }),
      );
    },
    close: () => client.destroy(),
  };
}
