import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
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
  /**
   * A form a browser POSTs one file with, straight to S3, for `expiresIn` seconds: `fields` first,
   * then the file as `file`. Its signed policy fixes the key and the content type and holds the size
   * to 1…`maxBytes` (`content-length-range`), so S3 refuses a larger file before storing any of it
   * (a presigned PUT cannot bound the size). s3rver ignores policies (STACK-NOTES): there the
   * attach's check of the stored size is what refuses.
   */
  presignPost(
    key: string,
    contentType: string,
    expiresIn: number,
    maxBytes: number,
  ): Promise<{ url: string; fields: Record<string, string> }>;
  /** Size and content type of a stored object; null when there is none. */
  head(key: string): Promise<{ bytes: number; type: string | undefined } | null>;
  /** The key of a URL of this store's objects (public URL, or the object under the upload endpoint); null for any other URL. */
  keyOf(url: string): string | null;
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
  // Browsers upload to the endpoint they can reach (in a compose network S3_ENDPOINT is internal).
  const uploadEndpoint = (config.S3_UPLOAD_ENDPOINT ?? config.S3_ENDPOINT).replace(/\/+$/, '');
  const uploadClient =
    uploadEndpoint === config.S3_ENDPOINT.replace(/\/+$/, '')
      ? client
      : new S3Client({
          endpoint: uploadEndpoint,
          region: config.S3_REGION,
          forcePathStyle: true,
          credentials: {
            accessKeyId: config.S3_ACCESS_KEY_ID,
            secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          },
          requestChecksumCalculation: 'WHEN_REQUIRED',
        });
  const uploadBase = `${uploadEndpoint}/${bucket}/`;
  const decodeKey = (path: string) => {
    try {
      return path.split('/').map(decodeURIComponent).join('/');
    } catch {
      return null;
    }
  };
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
    presignPost(key, contentType, expiresIn, maxBytes) {
      // The package pins its own client-s3 release: the same client at run time, another type.
      return createPresignedPost(uploadClient as unknown as Parameters<typeof createPresignedPost>[0], {
        Bucket: bucket,
        Key: key,
        Fields: { 'Content-Type': contentType },
        Conditions: [
          ['content-length-range', 1, maxBytes],
          ['eq', '$Content-Type', contentType],
        ],
        Expires: expiresIn,
      });
    },
    async head(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { bytes: res.ContentLength ?? 0, type: res.ContentType };
      } catch (err) {
        const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
          return null;
        throw err;
      }
    },
    keyOf(url) {
      const bare = url.split(/[?#]/, 1)[0] ?? '';
      for (const prefix of [`${base}/`, uploadBase]) {
        if (bare.startsWith(prefix)) return decodeKey(bare.slice(prefix.length));
      }
      return null;
    },
    close: () => {
      client.destroy();
      if (uploadClient !== client) uploadClient.destroy();
    },
  };
}
