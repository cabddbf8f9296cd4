import { IMAGE_TEXTS } from '@decor/contracts/rules';
import { QBO_TEXTS } from '@decor/web-core';
import type { ApiServer } from '@decor/web-core/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type FakeS3,
  file,
  fill,
  product,
  renderInventory,
  requestsTo,
  startServers,
  stopServers,
} from './product-admin-support';

const LIST = '/inventory/BARS/Bar%20Front';
const REQUIRED = 'This field is required';

describe('staff add products and categories from the inventory list (spec orders §2, §4, §5)', () => {
  let servers: { api: ApiServer; s3: FakeS3 };
  let products: unknown[] = [];

  beforeAll(async () => {
    servers = await startServers({
      'GET /product': () => ({ body: { result: products } }),
      'POST /product': (req) => ({
        status: 201,
        body: { result: product(req.body as Record<string, unknown>) },
      }),
      'POST /categories': () => ({ status: 201, body: { result: { Id: '13', Name: 'Corner Bar' } } }),
      'POST /product/NEW-1/presignedUrl': (req) => ({
        body: {
          result: (req.body as { id: string; type: string }[]).map((f, i) => ({
            id: f.id,
            type: f.type,
            url: `${servers.s3.url}/decor-images`,
            fields: {
              key: `products/NEW-1/${i}-${f.id}`,
              'Content-Type': f.type,
              Policy: 'eyJjb25kaXRpb25zIjpbXX0=',
              'X-Amz-Signature': 'abc',
            },
            imageUrl: `http://images.test/products/NEW-1/${i}-${f.id}`,
            expiresAt: '2030-01-01T00:00:00.000Z',
          })),
        },
      }),
      'POST /product/NEW-1/image': () => ({ status: 201, body: { result: [] } }),
    });
  });
  afterAll(() => stopServers(servers));
  beforeEach(() => {
    products = [];
    servers.api.requests.length = 0;
    servers.s3.puts.length = 0;
  });

  const dialog = () => screen.getByRole('dialog');
  async function openProductForm() {
    await userEvent.click(await screen.findByRole('button', { name: 'Add Product' }));
    const modal = await screen.findByRole('dialog', { name: 'Add Product' });
    const continueButton = within(modal).getByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    await userEvent.click(within(modal).getByRole('radio', { name: 'Product' }));
    const before = requestsTo(servers.api, 'GET', '/categories').length;
    await userEvent.click(continueButton);
    // Continue loads the categories, then the form.
    await within(modal).findByLabelText('Name');
    expect(requestsTo(servers.api, 'GET', '/categories').length).toBe(before + 1);
    return modal;
  }
  const picker = (modal: HTMLElement) => within(modal).getByLabelText('Images (up to 5, each under 100 KB)');

  it('customers and visitors get no Add Product button', async () => {
    await renderInventory(LIST, 'customer');
    expect(await screen.findByText('No products found here yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Product' })).not.toBeInTheDocument();
  });

  it('the product form: every required message, the first invalid field focused, nothing sent', async () => {
    await renderInventory(LIST);
    const modal = await openProductForm();
    // The list's category and subcategory are chosen already.
    expect(within(modal).getByText('BARS')).toBeInTheDocument();
    expect(within(modal).getByText('Bar Front')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Save Product' }));
    await waitFor(() => expect(within(modal).getAllByText(REQUIRED)).toHaveLength(5));
    expect(within(modal).getByLabelText('Name')).toHaveFocus();
    for (const label of ['Name', 'SKU', 'Price', 'Quantity', 'Description']) {
      expect(within(modal).getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(requestsTo(servers.api, 'POST', '/product')).toHaveLength(0);
  });

  it('changing the category clears the subcategory; its options are the category’s own', async () => {
    await renderInventory(LIST);
    const modal = await openProductForm();
    await userEvent.click(within(modal).getByLabelText('Category'));
    await userEvent.click(await screen.findByTitle('LIGHTING'));
    await waitFor(() => expect(within(modal).queryByText('Bar Front')).not.toBeInTheDocument());
    await userEvent.click(within(modal).getByLabelText('Subcategory'));
    expect(await screen.findByTitle('Candles')).toBeInTheDocument();
    expect(screen.queryByTitle('Back Bar')).not.toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Save Product' }));
    await waitFor(() =>
      expect(within(modal).getByLabelText('Subcategory')).toHaveAttribute('aria-invalid', 'true'),
    );
  });

  it('images: at most 5 at a time, each under 100 KB (one or several named), the selection cleared', async () => {
    await renderInventory(LIST);
    const modal = await openProductForm();
    const input = picker(modal) as HTMLInputElement;

    await userEvent.upload(
      input,
      Array.from({ length: 6 }, (_, i) => file(`photo-${i}.png`, 10)),
    );
    expect(within(modal).getByText(IMAGE_TEXTS.tooManyAtOnce)).toBeInTheDocument();
    expect(within(modal).queryByRole('list', { name: 'Chosen images' })).not.toBeInTheDocument();
    expect(input.value).toBe('');

    await userEvent.upload(input, [file('small.png', 99_999), file('big.png', 100_000)]);
    expect(
      within(modal).getByText('Image big.png has exceeded the max file size of 100kb'),
    ).toBeInTheDocument();
    expect(within(modal).queryByRole('list', { name: 'Chosen images' })).not.toBeInTheDocument();

    await userEvent.upload(input, [
      file('a.png', 150_000),
      file('b.jpg', 20),
      file('c.gif', 101_000, 'image/gif'),
    ]);
    expect(
      within(modal).getByText('Images a.png, c.gif have exceeded the max file size of 100kb'),
    ).toBeInTheDocument();

    // A good selection clears the message; names over 30 characters are cut to 30 plus an ellipsis.
    const long = `${'a-very-long-photo-name-of-the-bar'.slice(0, 33)}.png`;
    await userEvent.upload(input, [file(long, 2000), file('short.png', 10)]);
    expect(within(modal).queryByText(/exceeded the max file size/)).not.toBeInTheDocument();
    const chosen = within(modal).getByRole('list', { name: 'Chosen images' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([`${long.slice(0, 30)}...`, 'short.png']);
  });

  it('creates a product with two images: presigned PUTs straight to S3 (no Authorization), attached, saved', async () => {
    const store = await renderInventory(LIST);
    const modal = await openProductForm();
    fill(within(modal).getByLabelText('Name'), '  Velvet Rope  ');
    fill(within(modal).getByLabelText('SKU'), 'NEW-1');
    fill(within(modal).getByLabelText('Price'), '12.5');
    fill(within(modal).getByLabelText('Quantity'), '7');
    fill(within(modal).getByLabelText('Description'), 'Red velvet <b>rope</b>');
    await userEvent.upload(picker(modal), [file('one.png', 3000), file('two.jpg', 5000, 'image/jpeg')]);
    servers.s3.hold = true;
    await userEvent.click(within(modal).getByRole('button', { name: 'Save Product' }));

    // The progress bar shows while the files travel.
    expect(await within(modal).findByRole('progressbar', { name: 'Uploading images' })).toBeInTheDocument();
    await waitFor(() => expect(servers.s3.puts).toHaveLength(2));
    act(() => servers.s3.release());
    expect(await within(modal).findByText('Your product has been saved!')).toBeInTheDocument();
    expect(within(modal).queryByRole('progressbar')).not.toBeInTheDocument();

    expect(requestsTo(servers.api, 'POST', '/product').map((r) => r.body)).toEqual([
      {
        id: 'NEW-1',
        name: 'Velvet Rope',
        description: 'Red velvet <b>rope</b>',
        category: 'BARS',
        subcategory: 'Bar Front',
        price: 12.5,
        quantity: 7,
        turnaroundBefore: null,
        turnaroundAfter: null,
      },
    ]);
    expect(requestsTo(servers.api, 'POST', '/product/NEW-1/presignedUrl').map((r) => r.body)).toEqual([
      [
        { id: 'one.png', type: 'image/png' },
        { id: 'two.jpg', type: 'image/jpeg' },
      ],
    ]);
    // Presigned POST forms (issue 28): the signed fields first, the file last, no session token.
    const key = (p: (typeof servers.s3.puts)[number]) => p.fields.find(([name]) => name === 'key')?.[1] ?? '';
    const puts = [...servers.s3.puts].sort((a, b) => key(a).localeCompare(key(b)));
    expect(puts.map((p) => [p.method, p.url, p.fields, p.file, p.headers.authorization])).toEqual(
      [
        ['products/NEW-1/0-one.png', 'image/png', 3000],
        ['products/NEW-1/1-two.jpg', 'image/jpeg', 5000],
      ].map(([k, type, bytes]) => [
        'POST',
        '/decor-images',
        [
          ['key', k],
          ['Content-Type', type],
          ['Policy', 'eyJjb25kaXRpb25zIjpbXX0='],
          ['X-Amz-Signature', 'abc'],
          ['file', '(file)'],
        ],
        { type, bytes },
        undefined,
      ]),
    );
    expect(requestsTo(servers.api, 'POST', '/product/NEW-1/image').map((r) => r.body)).toEqual([
      ['http://images.test/products/NEW-1/0-one.png', 'http://images.test/products/NEW-1/1-two.jpg'],
    ]);
    // The API calls carry the session; the storage host never gets it.
    expect(requestsTo(servers.api, 'POST', '/product')[0]?.headers.authorization).toBe('Bearer jwt');

    // On close the dialog resets, and the list and the categories refresh.
    products = [product({ id: 'NEW-1', name: 'Velvet Rope' })];
    const categoriesBefore = requestsTo(servers.api, 'GET', '/categories').length;
    await userEvent.click(within(modal).getByRole('button', { name: 'Done' }));
    expect(
      await screen.findByRole('heading', { name: 'Velvet Rope' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(requestsTo(servers.api, 'GET', '/categories').length).toBeGreaterThan(categoriesBefore),
    );
    expect(store.getState().sideNav.categories.map((c) => c.name)).toEqual(['BARS', 'LIGHTING']);
    await userEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const again = await screen.findByRole('dialog', { name: 'Add Product' });
    expect(within(again).getByRole('radio', { name: 'Product' })).not.toBeChecked();
    expect(within(again).getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it("a refused product shows the server's words; an expired QuickBooks session shows its notice instead", async () => {
    await renderInventory(LIST);
    const modal = await openProductForm();
    servers.api.routes.set('POST /product', () => ({
      status: 409,
      body: { message: "A product with the SKU 'BAR-1' already exists" },
    }));
    fill(within(modal).getByLabelText('Name'), 'Dup');
    fill(within(modal).getByLabelText('SKU'), 'BAR-1');
    fill(within(modal).getByLabelText('Price'), '1');
    fill(within(modal).getByLabelText('Quantity'), '1');
    fill(within(modal).getByLabelText('Description'), 'd');
    // Enter submits.
    await userEvent.type(within(modal).getByLabelText('Name'), '{Enter}');
    expect(
      await within(modal).findByText("A product with the SKU 'BAR-1' already exists"),
    ).toBeInTheDocument();

    servers.api.routes.set('POST /product', () => ({
      status: 401,
      body: { message: 'The QuickBooks session has expired' },
      headers: { 'qbo-session-expired': 'true' },
    }));
    await userEvent.type(within(modal).getByLabelText('Name'), '{Enter}');
    expect(await within(modal).findByText(QBO_TEXTS.expired)).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Click here' })).toBeInTheDocument();
    expect(within(modal).queryByText(/already exists/)).not.toBeInTheDocument();
    expect(within(modal).queryByText('The QuickBooks session has expired')).not.toBeInTheDocument();
    // Still signed in, still in the form.
    expect(within(modal).getByLabelText('Name')).toBeInTheDocument();
    servers.api.routes.set('POST /product', (req) => ({
      status: 201,
      body: { result: product(req.body as Record<string, unknown>) },
    }));
  });

  it('adds a category and a subcategory (name required; a subcategory needs its parent)', async () => {
    await renderInventory(LIST);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Product' }));
    const modal = await screen.findByRole('dialog', { name: 'Add Product' });
    await userEvent.click(within(modal).getByRole('radio', { name: 'Category' }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Continue' }));
    const form = await screen.findByRole('dialog', { name: 'Add Category' });
    await within(form).findByLabelText('Name');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Category' }));
    expect(await within(form).findByText(REQUIRED)).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveFocus();

    fill(within(form).getByLabelText('Name'), 'Corner Bar');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Subcategory' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save Category' }));
    await waitFor(() =>
      expect(within(form).getByLabelText('Parent category')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(requestsTo(servers.api, 'POST', '/categories')).toHaveLength(0);
    await userEvent.click(within(form).getByLabelText('Parent category'));
    await userEvent.click(await screen.findByTitle('BARS'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save Category' }));
    expect(await within(form).findByText('Your category has been saved!')).toBeInTheDocument();
    expect(requestsTo(servers.api, 'POST', '/categories').map((r) => r.body)).toEqual([
      { name: 'Corner Bar', isSubCategory: true, parent: '10' },
    ]);
    expect(dialog()).toBeInTheDocument();
  });
});
