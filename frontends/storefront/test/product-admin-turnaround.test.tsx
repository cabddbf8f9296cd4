/**
 * The product form's Turnaround section (issue 15): the product's own days before and after a
 * booking (empty inherits, the placeholder says what from), and its category's own buffer saved apart.
 */
import type { ApiServer } from '@decor/web-core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type FakeS3,
  fill,
  product,
  renderInventory,
  requestsTo,
  startServers,
  stopServers,
} from './product-admin-support';

const PAGE = '/inventory/BARS/Bar%20Front/BAR-1';
const NAME = 'Mirrored Bar Front';

describe('turnaround buffers in the staff product form', () => {
  let servers: { api: ApiServer; s3: FakeS3 };
  let current = product();
  let bars = { before: null as number | null, after: 2 as number | null };

  beforeAll(async () => {
    servers = await startServers({
      'GET /product/BAR-1': () => ({ body: { result: [current] } }),
      'GET /product': () => ({ body: { result: [] } }),
      'PUT /product/BAR-1': (req) => {
        current = product({ ...(req.body as Record<string, unknown>) });
        return { body: { result: current } };
      },
      'GET /categories/10/turnaround': () => ({ body: { result: { Id: '10', Name: 'BARS', ...bars } } }),
      'PUT /categories/10/turnaround': (req) => {
        const body = req.body as { before: number | null; after: number | null };
        if ((body.after ?? 0) > 30)
          return { status: 400, body: { message: 'Turnaround days after must be at most 30' } };
        bars = body;
        return { body: { result: { Id: '10', Name: 'BARS', ...bars } } };
      },
    });
  });
  afterAll(() => stopServers(servers));
  beforeEach(() => {
    current = product({ turnaroundBefore: null, turnaroundAfter: 3 });
    bars = { before: null, after: 2 };
    servers.api.requests.length = 0;
  });

  async function openDetails() {
    await renderInventory(PAGE);
    await userEvent.click(await screen.findByRole('button', { name: `Edit ${NAME}` }));
    const choose = await screen.findByRole('dialog', { name: 'Edit Product' });
    await userEvent.click(within(choose).getByRole('button', { name: 'Product Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Product Details' });
    // The category's buffer has loaded once its own fields show it.
    await waitFor(() => expect(within(dialog).getByLabelText('BARS days after')).toHaveValue('2'));
    return dialog;
  }

  it("shows the product's own days, and what an empty side inherits; saves them (empty as null)", async () => {
    const dialog = await openDetails();
    const before = within(dialog).getByLabelText('Days before');
    const after = within(dialog).getByLabelText('Days after');
    expect(before).toHaveValue('');
    expect(before).toHaveAttribute('placeholder', 'Shop default: 1');
    expect(after).toHaveValue('3');
    expect(after).toHaveAttribute('placeholder', 'Category default: 2');

    fill(before, '0');
    fill(after, '');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    expect(await within(dialog).findByText('Your product has been updated!')).toBeInTheDocument();
    expect(requestsTo(servers.api, 'PUT', '/product/BAR-1').map((r) => r.body)).toEqual([
      expect.objectContaining({ turnaroundBefore: 0, turnaroundAfter: null }),
    ]);
    expect(requestsTo(servers.api, 'PUT', '/categories/10/turnaround')).toHaveLength(0);
  });

  it("saves the category's buffer apart (its button or Enter), never the product; the placeholders follow", async () => {
    const dialog = await openDetails();
    const categoryBefore = within(dialog).getByLabelText('BARS days before');
    expect(categoryBefore).toHaveValue('');
    expect(categoryBefore).toHaveAttribute('placeholder', 'Shop default: 1');

    fill(categoryBefore, '1');
    fill(within(dialog).getByLabelText('BARS days after'), '4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save category turnaround' }));
    expect(await within(dialog).findByText('The category turnaround has been saved.')).toBeInTheDocument();
    expect(requestsTo(servers.api, 'PUT', '/categories/10/turnaround').map((r) => r.body)).toEqual([
      { before: 1, after: 4 },
    ]);
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Days before')).toHaveAttribute(
        'placeholder',
        'Category default: 1',
      ),
    );

    // A refusal shows the server's words; Enter in these fields saves the category, not the product.
    fill(within(dialog).getByLabelText('BARS days after'), '45');
    await userEvent.type(within(dialog).getByLabelText('BARS days before'), '{Enter}');
    expect(await within(dialog).findByText('Turnaround days after must be at most 30')).toBeInTheDocument();
    expect(requestsTo(servers.api, 'PUT', '/categories/10/turnaround')).toHaveLength(2);
    expect(requestsTo(servers.api, 'PUT', '/product/BAR-1')).toHaveLength(0);
  });
});
