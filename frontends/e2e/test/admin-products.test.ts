/**
 * The staff's product dialogs in a real Chromium against the whole product with accounting-sync and
 * the QuickBooks emulator (spec orders §2 Product and category management, §4, §5, §7, §8): staff add
 * a product with two images (presigned PUTs straight to the local S3) and a customer sees it in the
 * storefront; the size and count limits; Set primary and delete an image; edit the details; delete the
 * product. API calls only set up what is not the subject (the QuickBooks connection) and read results.
 */
import { imagesOf, openAddProductForm, png, productStatus } from './support/admin-products';
import { ADMIN, connectDemoQuickBooks } from './support/admin-users';
import { screenshot } from './support/browser';
import { useBrowserStack } from './support/browser-fixture';
import { CUSTOMER } from './support/orders';
import { gone, openedDialog, pathOf, until, visible } from './support/ui';

const stack = useBrowserStack({ quickBooks: true, name: 'admin-products' });
const { product, fail } = stack;
const TAG = Date.now().toString(36).slice(-5).toUpperCase();
const SKU = `ROPE-${TAG}`;
const NAME = `Velvet Rope ${TAG}`;
const LIST = '/inventory/BARS/Bar%20Front';

beforeAll(async () => {
  await connectDemoQuickBooks(product.api, `Admin Products Co ${TAG}`);
});

const signedInPage = (who: typeof ADMIN) => stack.signedInPage(who, LIST);

const RED = png('red-velvet.png', [180, 20, 40]);
const BLUE = png('blue-velvet-rope-with-brass-stanchions.png', [20, 40, 180]);

it('staff add a product with two images (limits first); a customer sees it; set primary, delete an image, the count limit; edit and delete', async () => {
  const staff = await signedInPage(ADMIN);
  await (async () => {
    // Add Product → Product → Continue → the form, with the list's category chosen.
    const dialog = await openAddProductForm(staff);
    const picker = dialog.getByLabel('Images (up to 5, each under 100 KB)');
    await picker.setInputFiles(Array.from({ length: 6 }, (_, i) => png(`photo-${i}.png`, [i * 40, 90, 90])));
    await visible(dialog.getByText('Only 5 images can be uploaded at a time', { exact: true }));
    await picker.setInputFiles([RED, png('huge-rope.png', [0, 0, 0], 101_000)]);
    await visible(
      dialog.getByText('Image huge-rope.png has exceeded the max file size of 100kb', { exact: true }),
    );
    expect(await dialog.getByRole('list', { name: 'Chosen images' }).count()).toBe(0);
    await screenshot(staff, 'admin-products-size-limit');

    await dialog.getByRole('button', { name: 'Save Product' }).click();
    // antd shows a form's errors after its validation settles, not with the click.
    await until(
      () => dialog.getByText('This field is required', { exact: true }).count(),
      5,
      'five required fields flagged',
    );
    await visible(dialog.getByText('This field is required', { exact: true }).first());
    await dialog.getByLabel('Name', { exact: true }).fill(NAME);
    await dialog.getByLabel('SKU', { exact: true }).fill(SKU);
    await dialog.getByLabel('Price', { exact: true }).fill('12.50');
    await dialog.getByLabel('Quantity', { exact: true }).fill('8');
    await dialog.getByLabel('Description', { exact: true }).fill('Red velvet rope with brass hooks, 6 ft.');
    await picker.setInputFiles([RED, BLUE]);
    // The long name is cut to 30 characters plus an ellipsis.
    await visible(dialog.getByText(`${BLUE.name.slice(0, 30)}...`, { exact: true }));
    await dialog.getByRole('button', { name: 'Save Product' }).click();
    await visible(dialog.getByText('Your product has been saved!', { exact: true }));
    await screenshot(staff, 'admin-products-saved');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await gone(dialog);
    // The list refreshed with the new product.
    await visible(staff.getByRole('heading', { name: NAME }));
  })().catch(fail(staff, 'admin-products-add'));

  const images = await imagesOf(product.api, SKU);
  expect(images).toHaveLength(2);
  expect(images.map((i) => i.primary)).toEqual([true, false]);
  const [first, second] = images as [(typeof images)[0], (typeof images)[0]];

  // A customer sees it in the storefront, with its photo.
  const customer = await signedInPage(CUSTOMER);
  await (async () => {
    await visible(customer.getByRole('heading', { name: NAME }));
    const photo = customer.getByRole('img', { name: NAME, exact: true });
    await visible(photo);
    await until(
      () => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      true,
      'the product photo loaded',
    );
    expect(await photo.getAttribute('src')).toBe(first.url);
    await screenshot(customer, 'admin-products-customer-sees');
  })().catch(fail(customer, 'admin-products-customer'));

  await (async () => {
    // The product page: edit → Images.
    await staff
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: NAME }) })
      .getByRole('button', { name: 'More Info' })
      .click();
    await visible(staff.getByRole('heading', { name: NAME, level: 1 }));
    await staff.getByRole('button', { name: `Edit ${NAME}` }).click();
    const dialog = await openedDialog(staff, 'Edit Product');
    await dialog.getByRole('button', { name: 'Images', exact: true }).click();
    const edit = staff.getByRole('dialog', { name: 'Edit Images' });
    await visible(edit.getByText('Add images (3 more image(s) can be uploaded)', { exact: true }));
    await visible(edit.getByText('Primary', { exact: true }));

    // Set primary: the second image.
    await edit.getByRole('button', { name: 'Set primary: image 2' }).click();
    await until(
      async () => (await imagesOf(product.api, SKU)).map((i) => [i.id, i.primary]),
      [
        [second.id, true],
        [first.id, false],
      ],
      'the second image primary',
    );
    // Delete an image (the first one uploaded, now second) — once the dialog shows the new order:
    // the server answering first is not enough, a click before the list refetched deletes the other.
    await until(
      () =>
        edit
          .getByRole('list', { name: `Images of ${NAME}` })
          .getByRole('img')
          .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src'))),
      [second.url, first.url],
      'the dialog listing the second image first',
    );
    await edit.getByRole('button', { name: 'Delete image 2' }).click();
    await until(
      async () => (await imagesOf(product.api, SKU)).map((i) => i.id),
      [second.id],
      'one image left',
    );
    await visible(edit.getByText('Add images (4 more image(s) can be uploaded)', { exact: true }));

    // The count limit: 5 files with one image already; then 4 fit, and the label says the limit.
    const picker = edit.getByLabel('Add images (4 more image(s) can be uploaded)');
    const four = Array.from({ length: 4 }, (_, i) => png(`extra-${i}.png`, [60, i * 50, 30]));
    await picker.setInputFiles([...four, png('extra-4.png', [1, 2, 3])]);
    await visible(
      edit.getByText('You attempted to upload 5 image(s) and only 4 more image(s) can be uploaded.', {
        exact: true,
      }),
    );
    await screenshot(staff, 'admin-products-count-limit');
    await edit.getByLabel('Add images (4 more image(s) can be uploaded)').setInputFiles(four);
    const atLimit =
      'You have reached the max number of images for this product. To add a new image, please remove an existing image.';
    await visible(edit.getByText(atLimit, { exact: true }));
    expect(await edit.getByLabel(atLimit).isDisabled()).toBe(true);
    expect(await imagesOf(product.api, SKU)).toHaveLength(5);
    await screenshot(staff, 'admin-products-at-limit');

    // Product Details: rename.
    await edit.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Product Details' }).click();
    const details = staff.getByRole('dialog', { name: 'Edit Product Details' });
    expect(await details.getByLabel('SKU', { exact: true }).isDisabled()).toBe(true);
    await details.getByLabel('Name', { exact: true }).fill(`${NAME} Deluxe`);
    await details.getByRole('button', { name: 'Update Product' }).click();
    await visible(details.getByText('Your product has been updated!', { exact: true }));
    await details.getByRole('button', { name: 'Done' }).click();
    await gone(details);
    await visible(staff.getByRole('heading', { name: `${NAME} Deluxe`, level: 1 }));

    // Delete: the dialog titled Delete, then back on the list without it.
    await staff.getByRole('button', { name: `Delete ${NAME} Deluxe` }).click();
    const remove = staff.getByRole('dialog', { name: 'Delete' });
    await visible(remove.getByText(`Are you sure you want to delete ${NAME} Deluxe?`, { exact: false }));
    await screenshot(staff, 'admin-products-delete');
    await remove.getByRole('button', { name: 'Delete', exact: true }).click();
    await gone(remove);
    await until(async () => pathOf(staff), '/inventory/BARS/Bar Front', 'back on the list');
    await visible(staff.getByRole('heading', { name: 'Bar Front', level: 1 }));
    expect(await staff.getByRole('heading', { name: `${NAME} Deluxe` }).count()).toBe(0);
  })().catch(fail(staff, 'admin-products-edit'));
  expect(await productStatus(product.api, SKU)).toBe(404);
}, 420_000);
