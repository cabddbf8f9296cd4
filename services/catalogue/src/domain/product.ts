import { toDollars, type ViewerClass } from '@decor/contracts';

/**
 * A SKU as the admin types it (spec §3: the product id is the SKU): letters, digits and . _ -,
 * starting with a letter or digit. Anything else in a URL is a malformed id (400), not a lookup.
 */
export const SKU_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

/** Spec §9: at most 5 images per product (the rule shared with the staff's dialogs). */
export { MAX_PRODUCT_IMAGES as MAX_IMAGES } from '@decor/contracts';

export interface ProductImage {
  id: string;
  url: string;
  primary: boolean;
  /** Content type of the file, e.g. image/svg+xml. */
  type: string;
}

/** What the catalogue knows about a product (money in cents). */
export interface ProductState {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  quantity: number;
  category: string;
  subcategory: string;
  qboId?: string | null;
  syncToken?: string | null;
  images: ProductImage[];
  /** Its own turnaround buffer in whole days (issue 15); null or absent inherits the category's. */
  turnaroundBefore?: number | null;
  turnaroundAfter?: number | null;
}

/** Who is looking (contracts' viewer classes): the spec shows price, stock and SKU only to signed-in users. */
export type Viewer = ViewerClass;

/** Spec §2: the primary image is preferred, so it comes first; the others keep their order. */
export function primaryFirst<T extends { primary: boolean }>(images: readonly T[]): T[] {
  return [...images.filter((i) => i.primary), ...images.filter((i) => !i.primary)];
}

/**
 * Spec §3: a category or subcategory sometimes arrives as '{id}__{name}' (the accounting parent
 * reference, then the name). Products are filed by name, so only the name part counts.
 */
export function categoryName(value: string): string {
  const match = /^[^_]*__(.+)$/.exec(value);
  return (match?.[1] ?? value).trim();
}

export function imageView(image: ProductImage): ProductImage {
  return { id: image.id, url: image.url, primary: image.primary, type: image.type };
}

/**
 * A product as the API shows it to `viewer`: anonymous visitors get no price or stock (the id
 * stays, product URLs need it); staff also get the accounting references they edit with.
 */
export function productView(product: ProductState, viewer: Viewer) {
  const base = {
    id: product.sku,
    name: product.name,
    description: product.description,
    category: product.category,
    subcategory: product.subcategory,
    Images: primaryFirst(product.images).map(imageView),
  };
  if (viewer === 'anonymous') return base;
  const priced = { ...base, price: toDollars(product.priceCents), quantity: product.quantity };
  if (viewer === 'signedIn') return priced;
  return {
    ...priced,
    qboId: product.qboId ?? null,
    syncToken: product.syncToken ?? null,
    turnaroundBefore: product.turnaroundBefore ?? null,
    turnaroundAfter: product.turnaroundAfter ?? null,
  };
}

/**
 * A product's or category's own buffer as events carry it (`TurnaroundOverride`): only the sides
 * set; undefined when neither is, so consumers fall back to the next level.
 */
export function turnaroundOverride(
  before: number | null | undefined,
  after: number | null | undefined,
): { before?: number; after?: number } | undefined {
  if ((before ?? null) === null && (after ?? null) === null) return undefined;
  return {
    ...(before === null || before === undefined ? {} : { before }),
    ...(after === null || after === undefined ? {} : { after }),
  };
}
