/** Texts the spec quotes (shown exactly), and a few of our own. */
export const TEXTS = {
  callForDetails: 'Call or Email us for Details!',
  productsError: 'Uh oh, an error occurred while loading the products',
  productError: 'Uh oh, an error occurred while loading the product',
  addSuccess: 'Success!',
  addFailure: 'an error occurred',
  cartUpdateError: 'there was an error while updating the cart',
  cartLoadError: 'Something went wrong while loading the cart',
  cartEmpty: 'Your cart is empty',
  cartNameError: 'An error occurred while updating the cart name',
  cartsUpdateError: 'An error occurred while updating the cart',
  cartDeleteError: 'An error occurred while deleting the cart',
  cartCreateError: 'An error occurred while creating your cart',
  cartsLoadError: 'An error occurred while loading your carts',
  required: 'This field is required',
  agree: 'You must agree before submitting.',
  submitFailure: 'An error occurred while submitting the estimate',
  submitGenericFailure: 'an error occurred',
  submitted: 'Your order has been submitted and is pending review.',
  profileError: 'An error occurred while updating your profile',
  passwordMismatch: 'Password does not match',
  passwordChanged: 'Your password has been changed.',
  truckingChangeError: 'An error occurred while changing the trucking fee',
  truckingFetchError: 'An error occurred while fetching the trucking fee: ',
  truckingChanged: 'The trucking fee has been changed.',
  noProducts: 'No products found here yet.',
  noProduct: 'This product could not be found.',
} as const;

/** Spec §9: a success banner disappears after 2500 ms. */
export const SUCCESS_BANNER_MS = 2500;
