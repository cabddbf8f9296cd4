import { createQueue, createWorker, enqueueOnce, type JobWorker, type KitLogger } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ImageStore } from '../store/image-store';
import type { ProductModel } from '../store/product-model';
import type { UploadModel } from '../store/upload-model';

/**
 * Image files are S3 objects: removing them is an outside side effect, so it runs as a job with
 * retries, whose id is its cause.
 * - `cleanup-upload`: delayed by UPLOAD_CLEANUP_AFTER_S per presigned key (id from the key): if the
 *   upload was never attached, the file and its record go.
 * - `delete-files`: files of a deleted image or product (id from the product's revision and image).
 */
export const IMAGE_QUEUE = 'catalogue-images';

export type ImageJob = { kind: 'cleanup-upload'; key: string } | { kind: 'delete-files'; keys: string[] };

export function imageQueue(connection: Redis, prefix: string, logger?: KitLogger): Queue<ImageJob> {
  return createQueue<ImageJob>(IMAGE_QUEUE, { connection, prefix, logger });
}

export function scheduleUploadCleanup(queue: Queue<ImageJob>, key: string, delaySeconds: number) {
  return enqueueOnce(
    queue,
    'cleanup-upload',
    { kind: 'cleanup-upload', key },
    { jobId: `upload-cleanup.${key}`, delay: delaySeconds * 1000 },
  );
}

export function deleteFilesLater(queue: Queue<ImageJob>, cause: string, keys: string[]) {
  if (keys.length === 0) return Promise.resolve(undefined);
  return enqueueOnce(
    queue,
    'delete-files',
    { kind: 'delete-files', keys },
    { jobId: `delete-files.${cause}` },
  );
}

export interface ImageWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  images: ImageStore;
  uploads: UploadModel;
  products: ProductModel;
  logger: KitLogger;
  /** An attach holding an upload longer than this has died half-way (default 2 minutes). */
  abandonedAfterMs?: number;
}

/** Thrown while an attach holds the upload: the job is retried (with backoff) until it lets go. */
export class UploadBeingAttached extends Error {
  constructor(key: string) {
    super(`upload ${key} is being attached; cleanup tries again later`);
    this.name = 'UploadBeingAttached';
  }
}

export function imageWorker(o: ImageWorkerOptions): JobWorker<ImageJob> {
  return createWorker<ImageJob>(
    IMAGE_QUEUE,
    async (job) => {
      const data = job.data;
      if (data.kind === 'delete-files') return o.images.deleteKeys(data.keys);
      // Claimed here, the upload can no longer be attached; an attach that claimed it first wins.
      const upload = await o.uploads.findOneAndUpdate(
        { _id: data.key, state: { $in: ['pending', 'expired'] } },
        { $set: { state: 'expired' } },
        { new: true },
      );
      if (!upload) {
        const held = await o.uploads.findById(data.key).lean();
        if (!held) return; // attached (or refused and removed) meanwhile
        // An attach is at work: it either attaches the file or releases it to 'pending'.
        if (Date.now() - held.updatedAt.getTime() < (o.abandonedAfterMs ?? 120_000))
          throw new UploadBeingAttached(data.key);
        // That attach died half-way: the file stays only if a product shows it.
        const shown = await o.products.exists({ 'images.key': data.key });
        if (!shown) await o.images.deleteKeys([data.key]);
        await o.uploads.deleteOne({ _id: data.key, state: 'attaching' });
        return;
      }
      await o.images.deleteKeys([data.key]);
      await o.uploads.deleteOne({ _id: data.key, state: 'expired' });
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency, logger: o.logger },
  );
}
