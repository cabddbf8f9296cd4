/** Spec §2: a placeholder image when a product has none; the primary image is preferred. */
import type { ProductImage } from '../types';

export const PLACEHOLDER_IMAGE =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">' +
      '<rect width="400" height="300" fill="#efe6da"/>' +
      '<path d="M150 190l35-45 28 34 20-24 37 35z" fill="#c9b49c"/><circle cx="240" cy="120" r="16" fill="#c9b49c"/>' +
      '<text x="200" y="245" font-family="Georgia,serif" font-size="20" fill="#8a5a44" text-anchor="middle">' +
      'Photo coming soon</text></svg>',
  );

export function mainImage(images: readonly ProductImage[] | undefined): {
  url: string;
  placeholder: boolean;
} {
  const chosen = images?.find((i) => i.primary) ?? images?.[0];
  return chosen ? { url: chosen.url, placeholder: false } : { url: PLACEHOLDER_IMAGE, placeholder: true };
}

/** The product page's gallery: the chosen image in the main position, the others as thumbnails. */
export function withMain(
  images: readonly ProductImage[],
  mainId: string | null,
): {
  main: ProductImage | undefined;
  thumbnails: ProductImage[];
} {
  const main = images.find((i) => i.id === mainId) ?? images.find((i) => i.primary) ?? images[0];
  return { main, thumbnails: images.filter((i) => i !== main) };
}
