/**
 * The staff's product and category dialogs: the texts spec orders §4, §5 and §8 quote (shown exactly),
 * and a few of our own where the spec gives no wording (marked).
 */
import { type ApiError, FALLBACK_MESSAGE, isApiError } from '@decor/web-core';

export const PRODUCT_ADMIN_TEXTS = {
  addProduct: 'Add Product',
  /** Spec §4, the add-product dialog. */
  productSaved: 'Your product has been saved!',
  /** Ours: the add dialog's category form (the spec quotes only the product's). */
  categorySaved: 'Your category has been saved!',
  /** Spec §4, the edit dialog. */
  productUpdated: 'Your product has been updated!',
  /** Spec §5: a required field with no message of its own. */
  required: 'This field is required',
  /** Storefront spec §4/§8: the category call failed (the lists are then empty). */
  categoriesError: 'The inventory did not load',
  /** Spec §8, products. */
  deleteError: 'An error occurred while deleting the product',
  uploadError: 'An error occurred while uploading the image',
  imagesLoadError: 'An error occurred while loading the product images',
  imageUpdateError: 'An error occurred while updating the image',
  imageDeleteError: 'An error occurred while deleting the image',
  /** Ours: saving a product or category failed for another reason than QuickBooks' session. */
  saveError: 'An error occurred while saving',
  /** Ours: the delete dialog's question. */
  deleteQuestion: (name: string) =>
    `Are you sure you want to delete ${name}? It will be removed from the site.`,
  /** Ours: the label of the image picker on an existing product (spec §5: it states how many more). */
  imagesLeft: (m: number) => `Add images (${m} more image(s) can be uploaded)`,
  /** Ours: the label of the image picker of a new product. */
  newImages: 'Images (up to 5, each under 100 KB)',
  uploading: 'Uploading images',
  /** Ours (issue 15): the product form's turnaround section. */
  turnaround: 'Turnaround',
  turnaroundHelp:
    "Days kept free before and after each booking (cleaning, loading, trucking). Leave empty to use the category's.",
  daysBefore: 'Days before',
  daysAfter: 'Days after',
  shopDefault: (days: number) => `Shop default: ${days}`,
  categoryDefault: (days: number) => `Category default: ${days}`,
  categoryDaysBefore: (category: string) => `${category} days before`,
  categoryDaysAfter: (category: string) => `${category} days after`,
  categoryTurnaroundHelp: (category: string) =>
    `${category}'s own turnaround, for all its products without their own. Empty uses the shop default.`,
  saveCategoryTurnaround: 'Save category turnaround',
  categoryTurnaroundSaved: 'The category turnaround has been saved.',
  categoryTurnaroundError: 'The category turnaround did not load',
} as const;

/** The words to show for a failed call: the server's message, else the fallback. */
export function failureText(error: unknown): string {
  return isApiError(error) ? error.message : FALLBACK_MESSAGE;
}

/**
 * Spec §8: the creation and edit flows tell an expired QuickBooks session (the session banner then
 * says so, with its renewal) from other errors.
 */
export function isQboSessionError(error: unknown): boolean {
  return isApiError(error) && (error as ApiError).qboSessionExpired === true;
}
