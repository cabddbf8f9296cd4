import { randomUUID } from 'node:crypto';
import { type FlowStep, runFlow } from '@decor/kit';
import type { CatalogueContext } from '../context';
import {
  attachImages,
  IMAGE_MESSAGES,
  ImageRuleError,
  isImageTooLarge,
  oversizedProblem,
} from '../domain/images';
import type { Upload } from './upload-model';
import { changeProduct, type StoredProduct } from './writes';

/** Records a presigned upload of `sku`: only recorded keys are attached, the unattached ones cleaned up. */
export async function recordUpload(
  ctx: CatalogueContext,
  upload: Pick<Upload, '_id' | 'sku' | 'type' | 'fileName'>,
): Promise<void> {
  await ctx.uploads.create({ ...upload, state: 'pending' });
}

/** The uploads of `sku` among `keys` still waiting to be attached. */
export const pendingUploads = (ctx: CatalogueContext, sku: string, keys: readonly string[]) =>
  ctx.uploads.find({ _id: { $in: keys }, sku, state: 'pending' }).lean<Upload[]>();

const refuse = (message: string) => new ImageRuleError(400, message);

/**
 * Attaches uploaded files to a product, a flow (the kit's `runFlow`):
 * 1. "claim the upload <key>", one step per file (undo: back to pending): claimed, an upload can no
 *    longer be cleaned up, nor attached twice;
 * 2. "check the stored files": the stored object decides, whatever the browser claimed — missing,
 *    too large or not of the signed type refuses the whole request (400), the refused files deleted;
 * 3. "add the images to the product with ProductUpserted";
 * 4. "forget the attached uploads".
 * Refusals are ImageRuleErrors (400, the spec's sentences). A process dying after 1 leaves uploads
 * 'attaching': the cleanup job leaves them, and their files stay unattached.
 */
export async function attachUploads(
  ctx: CatalogueContext,
  sku: string,
  files: readonly { key: string; url: string; upload: Upload }[],
  correlationId: string,
): Promise<StoredProduct> {
  let after: StoredProduct | undefined;
  const claim = ({ key, url }: { key: string; url: string }): FlowStep<CatalogueContext> => ({
    name: `claim the upload ${key}`,
    run: async () => {
      const res = await ctx.uploads.updateOne(
        { _id: key, sku, state: 'pending' },
        { $set: { state: 'attaching' } },
      );
      if (res.modifiedCount === 0) throw refuse(IMAGE_MESSAGES.notPresigned(url));
    },
    undo: async () => {
      await ctx.uploads.updateOne({ _id: key, state: 'attaching' }, { $set: { state: 'pending' } });
    },
  });
  await runFlow(
    'attach images to a product',
    ctx,
    [
      ...files.map(claim),
      { name: 'check the stored files', run: () => checkStoredFiles(ctx, files) },
      {
        name: 'add the images to the product with ProductUpserted',
        run: async () => {
          const added: StoredProduct['images'] = files.map((f) => ({
            id: randomUUID().replace(/-/g, ''),
            url: ctx.images.publicUrl(f.key),
            primary: false,
            type: f.upload.type,
            key: f.key,
          }));
          ({ after } = await changeProduct(ctx, sku, correlationId, (current) => ({
            ...current,
            images: attachImages(current.images, added),
          })));
        },
      },
      {
        name: 'forget the attached uploads',
        run: async () => {
          await ctx.uploads.deleteMany({ _id: { $in: files.map((f) => f.key) } });
        },
      },
    ],
    ctx.log,
  );
  return after as StoredProduct;
}

/** Refuses (and deletes) files missing, too large or not of the type signed for. */
async function checkStoredFiles(
  ctx: CatalogueContext,
  files: readonly { key: string; upload: Upload }[],
): Promise<void> {
  const stored = await Promise.all(files.map((f) => ctx.images.head(f.key)));
  const heads = files.map((f, i) => ({ ...f, head: stored[i] }));
  const missing = heads.find((f) => !f.head);
  if (missing) throw refuse(IMAGE_MESSAGES.notUploaded(missing.upload.fileName));
  const sized = heads.map((f) => ({ name: f.upload.fileName, bytes: f.head?.bytes ?? 0, f }));
  const tooLarge = oversizedProblem(sized);
  const large = sized.filter((s) => isImageTooLarge(s.bytes)).map((s) => s.f);
  const wrongType = heads.filter((f) => f.head?.type !== f.upload.type);
  const refused = heads.filter((f) => large.includes(f) || wrongType.includes(f));
  if (refused.length === 0) return;
  // The refused files go now (the claims of the others are undone by the flow).
  const gone = refused.map((f) => f.key);
  await ctx.images.deleteKeys(gone);
  await ctx.uploads.deleteMany({ _id: { $in: gone } });
  throw refuse(
    tooLarge ?? IMAGE_MESSAGES.typeMismatch((wrongType[0] as (typeof heads)[number]).upload.fileName),
  );
}
