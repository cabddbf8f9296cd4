import {
  IMAGE_TEXTS,
  imageCountProblem,
  imageSizeProblem,
  isImageTooLarge,
  MAX_IMAGE_BYTES,
  remainingImageSlots,
} from '@decor/contracts';
import type { ProductImage } from './product';

/**
 * Spec §3-§5 and §9 image rules, pure: at most 5 images per product, each stored file under 100 KB
 * (1e5 bytes), exactly one primary (the first one when none is), and after the last delete a
 * placeholder image link is saved. The placeholder is an image with the id 'placeholder': it is not
 * a file of the product (it counts for nothing and is dropped when a real image arrives).
 */
export { isImageTooLarge, MAX_IMAGE_BYTES };
export const PLACEHOLDER_ID = 'placeholder';

/** Uploads are photos; SVG (which can carry script) is only used for the generated demo pictures. */
export const UPLOAD_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export const IMAGE_MESSAGES = {
  notImage: (type: string) =>
    `'${type}' is not an image type that can be uploaded (${Object.keys(UPLOAD_TYPES).join(', ')})`,
  notPresigned: (url: string) => `The image ${url} was not uploaded for this product through its upload link`,
  notUploaded: (file: string) => `The image ${file} has not been uploaded yet`,
  typeMismatch: (file: string) => `The image ${file} was not stored with the content type it was signed for`,
  duplicate: 'The same image was sent twice',
  imageNotFound: 'Image not found',
  placeholderKept:
    'The placeholder is shown while a product has no images; it goes away when an image is added',
} as const;

export class ImageRuleError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRuleError';
  }
}

export function realImages<T extends ProductImage>(images: readonly T[]): T[] {
  return images.filter((i) => i.id !== PLACEHOLDER_ID);
}

/** How many more images the product may get (the admin label's number). */
export function remainingSlots(images: readonly ProductImage[]): number {
  return remainingImageSlots(realImages(images).length);
}

/** 409 with the spec's sentence (@decor/contracts' image rules, as the dialogs show) when `adding` do not fit. */
export function checkRoom(images: readonly ProductImage[], adding: number): void {
  const existing = realImages(images).length;
  const problem = imageCountProblem(existing, adding);
  if (!problem) return;
  throw new ImageRuleError(409, remainingImageSlots(existing) === 0 ? IMAGE_TEXTS.atLimit : problem);
}

/** Exactly one primary: the one marked (the first marked if several), else the first image. */
function onePrimary<T extends ProductImage>(images: readonly T[]): T[] {
  const chosen = images.findIndex((i) => i.primary);
  const primary = Math.max(0, chosen);
  return images.map((image, i) => ({ ...image, primary: i === primary }));
}

/** New images go after the existing ones; the placeholder leaves; the first is primary if none is. */
export function attachImages<T extends ProductImage>(images: readonly T[], added: readonly T[]): T[] {
  const current = realImages(images);
  checkRoom(current, added.length);
  return onePrimary([...current, ...added.map((a) => ({ ...a, primary: false }))]);
}

export function setPrimary<T extends ProductImage>(images: readonly T[], imageId: string): T[] {
  if (imageId === PLACEHOLDER_ID || !images.some((i) => i.id === imageId))
    throw new ImageRuleError(404, IMAGE_MESSAGES.imageNotFound);
  return images.map((image) => ({ ...image, primary: image.id === imageId }));
}

/**
 * Removes one image. If it was the primary, the first remaining one becomes primary; if it was the
 * last, the placeholder link is saved in its place (spec §4).
 */
export function removeImage<T extends ProductImage>(
  images: readonly T[],
  imageId: string,
  placeholder: T,
): { images: T[]; removed: T } {
  if (imageId === PLACEHOLDER_ID) throw new ImageRuleError(409, IMAGE_MESSAGES.placeholderKept);
  const removed = images.find((i) => i.id === imageId);
  if (!removed) throw new ImageRuleError(404, IMAGE_MESSAGES.imageNotFound);
  const rest = images.filter((i) => i !== removed);
  return { images: rest.length === 0 ? [{ ...placeholder, primary: true }] : onePrimary(rest), removed };
}

/** The spec's sentence naming the stored files over the limit (by the names the admin picked), if any. */
export function oversizedProblem(files: readonly { name: string; bytes: number }[]): string | undefined {
  return imageSizeProblem(files.map((f) => ({ name: f.name, size: f.bytes })));
}
