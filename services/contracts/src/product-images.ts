/**
 * Spec orders §5 and §9, product images: at most 5 per product (and per upload), each file at most
 * 100 KB (1e5 bytes), image files only, names over 30 characters cut for display. One set of rules
 * for the catalogue service (which checks the stored objects) and the staff's product dialogs (which
 * check the chosen files before uploading). No TypeBox here: the frontends import this file.
 */

/** Spec §9: max 5 images per product. */
export const MAX_PRODUCT_IMAGES = 5;
/** Spec §9: each image under 100 KB (1e5 bytes): a file of 1e5 bytes or more has "exceeded the max file size". */
export const MAX_IMAGE_BYTES = 100_000;
/** Spec §5: image names over 30 characters are cut to 30 plus an ellipsis. */
export const IMAGE_NAME_DISPLAY_LENGTH = 30;

export const IMAGE_TEXTS = {
  tooManyAtOnce: 'Only 5 images can be uploaded at a time',
  atLimit:
    'You have reached the max number of images for this product. To add a new image, please remove an existing image.',
  notAnImage: 'Only image files can be uploaded',
} as const;

/** What the rules need of a file (a browser File, or a stored object's key and size). */
export interface ImageFileFacts {
  name: string;
  size: number;
  type?: string;
}

/** Spec §5: the image picker accepts image files only (content type image/…). */
export function isImageType(type: string | undefined): boolean {
  return typeof type === 'string' && /^image\/[A-Za-z0-9.+-]+$/.test(type);
}

function imageTypeProblem(files: readonly ImageFileFacts[]): string | undefined {
  return files.some((f) => !isImageType(f.type)) ? IMAGE_TEXTS.notAnImage : undefined;
}

export function isImageTooLarge(size: number): boolean {
  return size >= MAX_IMAGE_BYTES;
}

/**
 * Spec §5: 'Image {file} has exceeded the max file size of 100kb' for one file,
 * 'Images {list} have exceeded the max file size of 100kb' for several (names joined by ', ').
 */
export function imageSizeProblem(files: readonly ImageFileFacts[]): string | undefined {
  const large = files.filter((f) => isImageTooLarge(f.size)).map((f) => f.name);
  if (large.length === 0) return undefined;
  if (large.length === 1) return `Image ${large[0]} has exceeded the max file size of 100kb`;
  return `Images ${large.join(', ')} have exceeded the max file size of 100kb`;
}

/** How many more images a product with `existing` images may take. */
export function remainingImageSlots(existing: number): number {
  return Math.max(0, MAX_PRODUCT_IMAGES - existing);
}

/**
 * Spec §5, images added to an existing product (5 in total): 'You attempted to upload {n} image(s)
 * and only {m} more image(s) can be uploaded.'
 */
export function imageCountProblem(existing: number, adding: number): string | undefined {
  const remaining = remainingImageSlots(existing);
  if (adding <= remaining) return undefined;
  return `You attempted to upload ${adding} image(s) and only ${remaining} more image(s) can be uploaded.`;
}

/**
 * Spec §5, the images chosen for a new product: at most 5 at a time, then each under the size limit,
 * then image files only. The first problem, or undefined when the selection may be uploaded.
 */
export function newProductImagesProblem(files: readonly ImageFileFacts[]): string | undefined {
  if (files.length > MAX_PRODUCT_IMAGES) return IMAGE_TEXTS.tooManyAtOnce;
  return imageSizeProblem(files) ?? imageTypeProblem(files);
}

/** The images added to an existing product with `existing` images: count, then size, then type. */
export function addedImagesProblem(existing: number, files: readonly ImageFileFacts[]): string | undefined {
  return imageCountProblem(existing, files.length) ?? imageSizeProblem(files) ?? imageTypeProblem(files);
}

/** Spec §5: names over 30 characters are cut to 30 plus an ellipsis. */
export function shortImageName(name: string): string {
  const chars = Array.from(name);
  return chars.length > IMAGE_NAME_DISPLAY_LENGTH
    ? `${chars.slice(0, IMAGE_NAME_DISPLAY_LENGTH).join('')}...`
    : name;
}
