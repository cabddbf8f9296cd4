/**
 * The product image rules (spec orders §5, §9), one implementation shared with the catalogue service
 * in @decor/contracts; this is the dialogs' one import of it.
 */
export {
  addedImagesProblem,
  IMAGE_TEXTS,
  MAX_PRODUCT_IMAGES,
  newProductImagesProblem,
  remainingImageSlots,
  shortImageName,
} from '@decor/contracts/rules';
