import { randomUUID } from 'node:crypto';
import { badRequest, HttpError, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import {
  checkRoom,
  IMAGE_MESSAGES,
  ImageRuleError,
  MAX_IMAGE_BYTES,
  PLACEHOLDER_ID,
  removeImage,
  setPrimary,
  UPLOAD_TYPES,
} from '../domain/images';
import { imageView, primaryFirst } from '../domain/product';
import { deleteFilesLater, scheduleUploadCleanup } from '../jobs/image-jobs';
import type { Upload } from '../store/upload-model';
import { attachUploads, pendingUploads, recordUpload } from '../store/uploads';
import { changeProduct, type StoredProduct } from '../store/writes';
import { findProduct } from './respond';
import { ImageView, NoQuery, SkuParam } from './schemas';

type StoredImage = StoredProduct['images'][number];

const staffOnly = 'Staff only (admin or superadmin): a visitor gets 401, a customer 403.';

const ImageParams = Type.Object(
  {
    id: SkuParam.properties.id,
    imageId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', 'x-message': 'Invalid {field}' }),
  },
  { additionalProperties: false },
);

const FileName = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, description }));

const UploadRequest = Type.Object(
  {
    id: FileName('The file as the admin picked it (its name): error messages name it (spec §7 calls it id)'),
    name: FileName('The same as `id` (either one)'),
    category: Type.Optional(
      Type.String({ maxLength: 200, description: "The product's category (not used)" }),
    ),
    type: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Content type of the file, e.g. image/png',
    }),
  },
  { additionalProperties: false },
);

/** Spec §7 names the file `id`; a client may call it `name`. */
const FILE_NAME_REQUIRED = "Each file needs its name ('id' or 'name')";

const UploadAnswer = Type.Object({
  id: Type.String({ description: 'The file name as sent (id or name)' }),
  url: Type.String({
    description:
      'POST the file here as multipart/form-data: every entry of `fields` first, then the file as `file` ' +
      '(no Authorization). S3 refuses a file of 100 KB (1e5 bytes) or more, or of another type',
  }),
  fields: Type.Record(Type.String(), Type.String(), {
    description: 'The signed form fields (key, Content-Type, policy with content-length-range, signature)',
  }),
  imageUrl: Type.String({
    description: 'Where the file will be served; send it to POST /product/{id}/image',
  }),
  type: Type.String(),
  expiresAt: Type.String({ description: 'The upload URL stops working then (ISO date-time)' }),
});

const ImageList = Type.Object({ result: Type.Array(ImageView, { description: 'Primary image first' }) });

function ruleAnswer(err: unknown): never {
  if (err instanceof ImageRuleError) throw new HttpError(err.status, err.message);
  throw err;
}

const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">' +
  '<rect width="400" height="300" fill="#efe6da"/>' +
  '<path d="M150 190l35-45 28 34 20-24 37 35z" fill="#c9b49c"/><circle cx="240" cy="120" r="16" fill="#c9b49c"/>' +
  '<text x="200" y="245" font-family="Georgia,serif" font-size="20" fill="#8a5a44" text-anchor="middle">' +
  'Photo coming soon</text></svg>';

/** The placeholder image saved after a product's last image is deleted (spec §4). */
function placeholderImage(ctx: CatalogueContext): () => Promise<StoredImage> {
  let uploaded: Promise<string> | undefined;
  const url = () => {
    const configured = ctx.config.PLACEHOLDER_IMAGE_URL;
    if (configured) return Promise.resolve(configured);
    if (!uploaded) {
      const key = ctx.images.key('placeholder.svg');
      uploaded = ctx.images.put(key, PLACEHOLDER_SVG, 'image/svg+xml').then(() => ctx.images.publicUrl(key));
      uploaded.catch(() => {
        uploaded = undefined;
      });
    }
    return uploaded;
  };
  return async () => ({ id: PLACEHOLDER_ID, url: await url(), primary: true, type: 'image/svg+xml' });
}

export async function productImageRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };
  const placeholder = placeholderImage(ctx);

  app.post(
    '/product/:id/presignedUrl',
    {
      ...staff,
      schema: {
        summary: 'Upload links for new images of a product, one per file (spec §7)',
        description:
          `${staffOnly} The browser POSTs each file straight to its \`url\` with its \`fields\` (a presigned ` +
          'POST whose policy holds the size under 100 KB and fixes the content type), then attaches ' +
          `them with \`POST /product/{id}/image\`. Image types only (${Object.keys(UPLOAD_TYPES).join(', ')}): ` +
          'else 400. More files than the product has room for (5 images per product): 409. A file uploaded ' +
          'but not attached is deleted after UPLOAD_CLEANUP_AFTER_S.',
        security: [{ session: [] }],
        params: SkuParam,
        querystring: NoQuery,
        body: Type.Array(UploadRequest, { minItems: 1, maxItems: 5 }),
        response: { 200: Type.Object({ result: Type.Array(UploadAnswer) }) },
      },
    },
    async (request) => {
      const sku = request.params.id;
      const files = request.body.map((f) => ({ ...f, fileName: f.name ?? f.id }));
      for (const f of files) {
        if (!f.fileName) throw badRequest(FILE_NAME_REQUIRED);
        if (!UPLOAD_TYPES[f.type]) throw badRequest(IMAGE_MESSAGES.notImage(f.type));
      }
      const product = await findProduct(ctx, sku);
      try {
        checkRoom(product.images, files.length);
      } catch (err) {
        ruleAnswer(err);
      }
      const expiresIn = ctx.config.UPLOAD_URL_EXPIRES_S;
      const expiresAt = new Date(Date.now() + expiresIn * 1000).toISOString();
      const result = [];
      for (const f of files) {
        const key = ctx.images.key(sku, 'uploads', `${randomUUID()}.${UPLOAD_TYPES[f.type]}`);
        // Under MAX_IMAGE_BYTES (the spec's "under 100 KB"): S3 refuses more before storing it.
        const { url, fields } = await ctx.images.presignPost(key, f.type, expiresIn, MAX_IMAGE_BYTES - 1);
        const fileName = f.fileName as string;
        await recordUpload(ctx, { _id: key, sku, type: f.type, fileName });
        await scheduleUploadCleanup(ctx.imageQueue, key, ctx.config.UPLOAD_CLEANUP_AFTER_S);
        result.push({
          id: fileName,
          url,
          fields,
          imageUrl: ctx.images.publicUrl(key),
          type: f.type,
          expiresAt,
        });
      }
      return { result };
    },
  );

  app.post(
    '/product/:id/image',
    {
      ...staff,
      schema: {
        summary: 'Attach uploaded images to a product (spec §7: a list of URLs); publishes ProductUpserted',
        description:
          `${staffOnly} Each URL is one this service presigned for this product (its \`imageUrl\`, or the ` +
          "file's URL under the upload endpoint), else 400. At most 5 images per product: 409 with the spec's sentence. Each stored " +
          "file must be under 100 KB (1e5 bytes): a larger one is refused (400, the spec's message) and " +
          'deleted, and nothing of the request is attached. The first image is primary when none is; a ' +
          "placeholder image goes. Answers the product's images, primary first.",
        security: [{ session: [] }],
        params: SkuParam,
        querystring: NoQuery,
        body: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 5 }),
        response: { 201: ImageList },
      },
    },
    async (request, reply) => {
      const sku = request.params.id;
      const urls = request.body;
      const keys = urls.map((url) => {
        const key = ctx.images.keyOf(url);
        if (!key) throw badRequest(IMAGE_MESSAGES.notPresigned(url));
        return key;
      });
      if (new Set(keys).size !== keys.length) throw badRequest(IMAGE_MESSAGES.duplicate);
      const product = await findProduct(ctx, sku);
      const uploads = await pendingUploads(ctx, sku, keys);
      const byKey = new Map(uploads.map((u) => [u._id, u]));
      keys.forEach((key, i) => {
        if (!byKey.has(key)) throw badRequest(IMAGE_MESSAGES.notPresigned(urls[i] as string));
      });
      try {
        checkRoom(product.images, keys.length);
      } catch (err) {
        ruleAnswer(err);
      }
      const files = keys.map((key, i) => ({ key, url: urls[i] as string, upload: byKey.get(key) as Upload }));
      const after = await attachUploads(ctx, sku, files, request.id).catch(ruleAnswer);
      return reply.code(201).send({ result: primaryFirst(after.images).map(imageView) });
    },
  );

  app.put(
    '/product/:id/image/:imageId',
    {
      ...staff,
      schema: {
        summary: 'Set primary: this image becomes the only primary one; publishes ProductUpserted',
        description: `${staffOnly} Body \`{ "primary": true }\`. Answers the images, primary first; 404 unknown image.`,
        security: [{ session: [] }],
        params: ImageParams,
        querystring: NoQuery,
        body: Type.Object(
          {
            primary: Type.Literal(true, {
              'x-message': 'Only { "primary": true } can be sent: set another image primary instead',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 200: ImageList },
      },
    },
    async (request) => {
      const { id: sku, imageId } = request.params;
      const { after } = await changeProduct(ctx, sku, request.id, (current) => {
        if (current.images.find((i) => i.id === imageId)?.primary) return null;
        try {
          return { ...current, images: setPrimary(current.images, imageId) };
        } catch (err) {
          return ruleAnswer(err);
        }
      });
      return { result: primaryFirst(after.images).map(imageView) };
    },
  );

  app.delete(
    '/product/:id/image/:imageId',
    {
      ...staff,
      schema: {
        summary: "Delete one of a product's images (its file too); publishes ProductUpserted",
        description:
          `${staffOnly} If it was primary, the first remaining image becomes primary; after the last one the ` +
          "placeholder image link is saved (id 'placeholder', which cannot be deleted: 409). 404 unknown image. " +
          'Answers the images, primary first.',
        security: [{ session: [] }],
        params: ImageParams,
        querystring: NoQuery,
        response: { 200: ImageList },
      },
    },
    async (request) => {
      const { id: sku, imageId } = request.params;
      const saved = await placeholder();
      let removed: StoredImage | undefined;
      const { after } = await changeProduct(ctx, sku, request.id, (current) => {
        try {
          const next = removeImage(current.images, imageId, saved);
          removed = next.removed;
          return { ...current, images: next.images };
        } catch (err) {
          return ruleAnswer(err);
        }
      });
      if (removed?.key) await deleteFilesLater(ctx.imageQueue, `${sku}.image.${imageId}`, [removed.key]);
      return { result: primaryFirst(after.images).map(imageView) };
    },
  );
}
