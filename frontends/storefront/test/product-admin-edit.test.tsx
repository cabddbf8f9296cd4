import { IMAGE_TEXTS } from '@decor/contracts/rules';
import type { ApiServer } from '@decor/web-core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type FakeS3,
  file,
  fill,
  image,
  product,
  renderInventory,
  requestsTo,
  startServers,
  stopServers,
} from './product-admin-support';

const PAGE = '/inventory/BARS/Bar%20Front/BAR-1';
const NAME = 'Mirrored Bar Front';

describe('staff edit and delete a product from its page (spec orders §2, §4, §5, §8)', () => {
  let servers: { api: ApiServer; s3: FakeS3 };
  let current = product();
  let images = [image('i1', true), image('i2'), image('i3')];

  beforeAll(async () => {
    servers = await startServers({
      'GET /product/BAR-1': () => ({ body: { result: [current] } }),
      'GET /product': () => ({ body: { result: [] } }),
      'PUT /product/BAR-1': (req) => {
        current = product({ ...(req.body as Record<string, unknown>) });
        return { body: { result: current } };
      },
      'DELETE /product/BAR-1': () => ({ body: { result: { id: 'BAR-1' } } }),
      'GET /product/BAR-1/image': () => ({ body: { result: images } }),
      'PUT /product/BAR-1/image/i2': () => {
        images = [image('i2', true), image('i1'), image('i3')];
        return { body: { result: images } };
      },
      'DELETE /product/BAR-1/image/i3': () => ({ status: 500, body: { message: 'S3 is down' } }),
      'DELETE /product/BAR-1/image/i1': () => {
        images = images.filter((i) => i.id !== 'i1');
        return { body: { result: images } };
      },
    });
  });
  afterAll(() => stopServers(servers));
  beforeEach(() => {
    current = product();
    images = [image('i1', true), image('i2'), image('i3')];
    servers.api.requests.length = 0;
  });

  async function openEdit(step: 'Images' | 'Product Details') {
    await userEvent.click(await screen.findByRole('button', { name: `Edit ${NAME}` }));
    const choose = await screen.findByRole('dialog', { name: 'Edit Product' });
    await userEvent.click(within(choose).getByRole('button', { name: step }));
    return screen.findByRole('dialog', { name: step === 'Images' ? 'Edit Images' : 'Edit Product Details' });
  }

  it('customers get no edit or delete icons; staff get both, named', async () => {
    await renderInventory(PAGE, 'customer');
    expect(await screen.findByRole('heading', { name: NAME, level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `Edit ${NAME}` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `Delete ${NAME}` })).not.toBeInTheDocument();
  });

  it('Product Details: the form filled in, the SKU fixed, a required field enforced, the update saved', async () => {
    await renderInventory(PAGE);
    const dialog = await openEdit('Product Details');
    expect(within(dialog).getByLabelText('SKU')).toBeDisabled();
    expect(within(dialog).getByLabelText('SKU')).toHaveValue('BAR-1');
    expect(within(dialog).getByLabelText('Name')).toHaveValue(NAME);
    expect(within(dialog).getByLabelText('Price')).toHaveValue('150.00');
    fill(within(dialog).getByLabelText('Description'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Description')).toHaveFocus();
    expect(requestsTo(servers.api, 'PUT', '/product/BAR-1')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Description'), 'Now with LED lights');
    fill(within(dialog).getByLabelText('Name'), 'Mirrored Bar Front XL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    expect(await within(dialog).findByText('Your product has been updated!')).toBeInTheDocument();
    expect(requestsTo(servers.api, 'PUT', '/product/BAR-1').map((r) => r.body)).toEqual([
      {
        name: 'Mirrored Bar Front XL',
        description: 'Now with LED lights',
        category: 'BARS',
        subcategory: 'Bar Front',
        price: 150,
        quantity: 4,
        turnaroundBefore: null,
        turnaroundAfter: null,
      },
    ]);
    // Done closes the dialog and the page shows the product as saved.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(
      await screen.findByRole('heading', { name: 'Mirrored Bar Front XL', level: 1 }),
    ).toBeInTheDocument();
  });

  it('Images: how many more, the count message, Set primary, delete (and its failure)', async () => {
    await renderInventory(PAGE);
    const dialog = await openEdit('Images');
    const list = await within(dialog).findByRole('list', { name: `Images of ${NAME}` });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('Primary')).toBeInTheDocument();
    const picker = within(dialog).getByLabelText('Add images (2 more image(s) can be uploaded)');

    await userEvent.upload(picker, [file('a.png', 10), file('b.png', 10), file('c.png', 10)]);
    expect(
      within(dialog).getByText(
        'You attempted to upload 3 image(s) and only 2 more image(s) can be uploaded.',
      ),
    ).toBeInTheDocument();
    await userEvent.upload(picker, [file('big.png', 100_000)]);
    expect(
      within(dialog).getByText('Image big.png has exceeded the max file size of 100kb'),
    ).toBeInTheDocument();
    expect(requestsTo(servers.api, 'POST', '/product/BAR-1/presignedUrl')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Set primary: image 2' }));
    await waitFor(() =>
      expect(requestsTo(servers.api, 'PUT', '/product/BAR-1/image/i2').map((r) => r.body)).toEqual([
        { primary: true },
      ]),
    );
    // The list follows: i2 first and primary.
    await waitFor(() =>
      expect(within(dialog).getByRole('img', { name: `${NAME}, 1 of 3` })).toHaveAttribute(
        'src',
        'http://images.test/i2.png',
      ),
    );

    const deleteThird = within(dialog).getByRole('button', { name: 'Delete image 3' });
    await waitFor(() => expect(deleteThird).toBeEnabled());
    await userEvent.click(deleteThird);
    expect(await within(dialog).findByText('An error occurred while deleting the image')).toBeInTheDocument();
    expect(within(dialog).getByText('S3 is down')).toBeInTheDocument();

    const deleteSecond = within(dialog).getByRole('button', { name: 'Delete image 2' });
    await waitFor(() => expect(deleteSecond).toBeEnabled());
    await userEvent.click(deleteSecond);
    await waitFor(() => expect(requestsTo(servers.api, 'DELETE', '/product/BAR-1/image/i1')).toHaveLength(1));
    expect(
      await within(dialog).findByLabelText('Add images (3 more image(s) can be uploaded)'),
    ).toBeEnabled();
  });

  it('Images: at the limit the picker says so and is disabled; the placeholder counts for nothing', async () => {
    images = ['i1', 'i2', 'i3', 'i4', 'i5'].map((id, i) => image(id, i === 0));
    await renderInventory(PAGE);
    let dialog = await openEdit('Images');
    expect(await within(dialog).findByLabelText(IMAGE_TEXTS.atLimit)).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    images = [{ ...image('placeholder', true), url: 'http://images.test/placeholder.svg' }];
    dialog = await openEdit('Images');
    expect(await within(dialog).findByText('This product has no images yet.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Add images (5 more image(s) can be uploaded)')).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: /Delete image/ })).not.toBeInTheDocument();
  });

  it('the delete dialog is titled Delete; a failure says so; a delete goes back to the list', async () => {
    await renderInventory(PAGE);
    servers.api.routes.set('DELETE /product/BAR-1', () => ({
      status: 500,
      body: { message: 'An error occurred' },
    }));
    await userEvent.click(await screen.findByRole('button', { name: `Delete ${NAME}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    // antd's dialog takes its clicks once it has opened.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      within(dialog).getByText(`Are you sure you want to delete ${NAME}? It will be removed from the site.`),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('An error occurred while deleting the product'),
    ).toBeInTheDocument();

    let deleted = 0;
    servers.api.routes.set('DELETE /product/BAR-1', () => {
      deleted += 1;
      return { body: { result: { id: 'BAR-1' } } };
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(screen.getByLabelText('location')).toHaveTextContent(/^\/inventory\/BARS\/Bar Front$/),
    );
    expect(deleted).toBe(1);
    expect(requestsTo(servers.api, 'DELETE', '/product/BAR-1')).toHaveLength(2);
  });
});
