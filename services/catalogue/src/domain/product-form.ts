import { MAX_TURNAROUND_DAYS, toCents } from '@decor/contracts';
import { categoryName } from './product';

/**
 * Spec §5 product and category forms, checked on the server as the admin dialogs check them, with
 * the spec's sentence ('This field is required') after the field's label, so one message names
 * the field and says what is wrong. Pure: the routes pass the category tree in.
 */
export const REQUIRED = 'This field is required';

export const PRODUCT_LABELS = {
  id: 'SKU',
  name: 'Name',
  description: 'Description',
  category: 'Category',
  subcategory: 'Subcategory',
  price: 'Price',
  quantity: 'Quantity',
  turnaroundBefore: 'Turnaround days before',
  turnaroundAfter: 'Turnaround days after',
} as const;

export type ProductField = keyof typeof PRODUCT_LABELS;

export const MESSAGES = {
  required: (label: string) => `${label}: ${REQUIRED}`,
  notNumber: (label: string) => `${label} must be a number`,
  negative: (label: string) => `${label} must be 0 or more`,
  wholeNumber: (label: string) => `${label} must be a whole number`,
  tooBig: (label: string, max: number) => `${label} must be at most ${max}`,
  unknownCategory: (name: string) => `There is no category named '${name}'`,
  notInCategory: (sub: string, category: string) =>
    `The subcategory '${sub}' does not belong to the category '${category}'`,
  skuTaken: (sku: string) => `A product with the SKU '${sku}' already exists`,
  skuChanged: 'The SKU of a product cannot be changed',
  categoryTaken: (name: string) => `A category named '${name}' already exists`,
  subcategoryTaken: (name: string, parent: string) =>
    `The category '${parent}' already has a subcategory named '${name}'`,
  parentNotFound: 'The parent category does not exist',
  parentIsSubcategory: 'A subcategory cannot be the parent of another subcategory',
  parentNotAllowed: 'Only a subcategory has a parent category',
  categoryNotFound: 'Category not found',
  turnaroundOfSubcategory: 'Only a top-level category has a turnaround buffer; its subcategories share it',
} as const;

/** Dollars (two decimals) and stock, as far as a product may go. */
export const MAX_PRICE = 1_000_000;
export const MAX_QUANTITY = 1_000_000;

/** What a product form may send: strings from text inputs, or numbers. */
export interface ProductInput {
  id?: string;
  name?: string;
  description?: string;
  category?: string;
  subcategory?: string;
  price?: number | string;
  quantity?: number | string;
  /** The product's own turnaround buffer; empty or null inherits (issue 15). */
  turnaroundBefore?: number | string | null;
  turnaroundAfter?: number | string | null;
}

export interface ProductFields {
  name: string;
  description: string;
  category: string;
  subcategory: string;
  priceCents: number;
  quantity: number;
  turnaroundBefore: number | null;
  turnaroundAfter: number | null;
}

export class FormError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormError';
  }
}

function text(value: string | undefined, field: ProductField): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) throw new FormError(MESSAGES.required(PRODUCT_LABELS[field]));
  return trimmed;
}

const blank = (value: number | string | null | undefined): value is undefined | null | '' =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function numeric(value: number | string, label: string): number {
  const n =
    typeof value === 'number' ? value : /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new FormError(MESSAGES.notNumber(label));
  return n;
}

function number(value: number | string | undefined, field: 'price' | 'quantity', max: number): number {
  const label = PRODUCT_LABELS[field];
  if (blank(value)) throw new FormError(MESSAGES.required(label));
  const n = numeric(value, label);
  if (n < 0) throw new FormError(MESSAGES.negative(label));
  if (n > max) throw new FormError(MESSAGES.tooBig(label, max));
  return n;
}

/**
 * A whole product form (creation, or an edit merged onto the stored product): every field
 * required, price and quantity numbers (price rounded to the cent, quantity whole). Category and
 * subcategory are names here ('{id}__{name}' pairs keep their name); `checkCategory` places them.
 */
export function productFields(input: ProductInput): ProductFields {
  const name = text(input.name, 'name');
  const category = categoryName(text(input.category, 'category'));
  const subcategory = categoryName(text(input.subcategory, 'subcategory'));
  const price = number(input.price, 'price', MAX_PRICE);
  const quantity = number(input.quantity, 'quantity', MAX_QUANTITY);
  if (!Number.isInteger(quantity)) throw new FormError(MESSAGES.wholeNumber(PRODUCT_LABELS.quantity));
  const description = text(input.description, 'description');
  return {
    name,
    description,
    category,
    subcategory,
    priceCents: toCents(price),
    quantity,
    turnaroundBefore: turnaroundDays(input.turnaroundBefore, PRODUCT_LABELS.turnaroundBefore),
    turnaroundAfter: turnaroundDays(input.turnaroundAfter, PRODUCT_LABELS.turnaroundAfter),
  };
}

/**
 * One side of a turnaround buffer (issue 15): empty inherits (null), else whole days 0 to
 * MAX_TURNAROUND_DAYS (a typo of 100 days would block a product for months).
 */
export function turnaroundDays(value: number | string | null | undefined, label: string): number | null {
  if (blank(value)) return null;
  const n = numeric(value, label);
  if (n < 0) throw new FormError(MESSAGES.negative(label));
  if (!Number.isInteger(n)) throw new FormError(MESSAGES.wholeNumber(label));
  if (n > MAX_TURNAROUND_DAYS) throw new FormError(MESSAGES.tooBig(label, MAX_TURNAROUND_DAYS));
  return n;
}

export interface TurnaroundInput {
  before?: number | string | null;
  after?: number | string | null;
}

/** A category's own buffer as staff set it: each side empty (inherit) or whole days 0 to 30. */
export function categoryTurnaround(input: TurnaroundInput): { before: number | null; after: number | null } {
  return {
    before: turnaroundDays(input.before, PRODUCT_LABELS.turnaroundBefore),
    after: turnaroundDays(input.after, PRODUCT_LABELS.turnaroundAfter),
  };
}

/** The SKU of a new product: required (its pattern is the route schema's). */
export function newSku(input: ProductInput): string {
  return text(input.id, 'id');
}

export interface CategoryNode {
  id: string;
  name: string;
  parentId: string | null;
}

/**
 * Spec §5: the subcategory options are only those whose parent is the selected category, so the
 * server refuses a subcategory of another category (names compare as the storefront links them).
 */
export function checkCategory(tree: readonly CategoryNode[], category: string, subcategory: string): void {
  const parent = tree.find((c) => !c.parentId && c.name === category);
  if (!parent) throw new FormError(MESSAGES.unknownCategory(category));
  if (!tree.some((c) => c.parentId === parent.id && c.name === subcategory))
    throw new FormError(MESSAGES.notInCategory(subcategory, category));
}

export interface CategoryInput {
  name?: string;
  isSubCategory?: boolean;
  /** The parent category's Id (or its name, or an '{id}__{name}' pair). */
  parent?: string;
}

/**
 * Spec §5 category form: name required; a parent required for a subcategory, and it must be a
 * top-level category. Returns the new node's name and parent id; names are unique per parent.
 */
export function categoryFields(
  tree: readonly CategoryNode[],
  input: CategoryInput,
): { name: string; parentId: string | null } {
  const name = (input.name ?? '').trim();
  if (!name) throw new FormError(MESSAGES.required('Name'));
  const parentRef = (input.parent ?? '').trim();
  if (!input.isSubCategory) {
    if (parentRef) throw new FormError(MESSAGES.parentNotAllowed);
    if (tree.some((c) => !c.parentId && c.name.toLowerCase() === name.toLowerCase()))
      throw new ConflictError(MESSAGES.categoryTaken(name));
    return { name, parentId: null };
  }
  if (!parentRef) throw new FormError(MESSAGES.required('Parent category'));
  const byId = tree.find((c) => c.id === parentRef);
  const parent = byId ?? tree.find((c) => !c.parentId && c.name === categoryName(parentRef));
  if (!parent) throw new FormError(MESSAGES.parentNotFound);
  if (parent.parentId) throw new FormError(MESSAGES.parentIsSubcategory);
  if (tree.some((c) => c.parentId === parent.id && c.name.toLowerCase() === name.toLowerCase()))
    throw new ConflictError(MESSAGES.subcategoryTaken(name, parent.name));
  return { name, parentId: parent.id };
}

export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}
