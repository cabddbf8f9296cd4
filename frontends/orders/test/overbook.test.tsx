/**
 * Issue 15: an order edit that needs more units than are free is refused (409 with the short lines).
 * Staff get 'Book anyway (sub-rental)?' listing the short lines, which resends with overbook: true;
 * customers only see the reason.
 */
import { http } from '@decor/web-core';
import { type ApiServer, demoUser, type Reply, startApiServer } from '@decor/web-core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anOrder, renderOrders, staffUser } from './support';

const SHORT = 'Only 2 Mirrored Bar Front are available on Thursday, June 20th, 2030';
const refusal: Reply = {
  status: 409,
  body: {
    message: SHORT,
    shortLines: [
      { productId: 'BAR-FR-001', name: 'Mirrored Bar Front', requested: 3, available: 2, day: '2030-06-20' },
    ],
  },
};

describe('order edit beyond the units free', () => {
  let server: ApiServer;
  let replies: Reply[];

  beforeAll(async () => {
    server = await startApiServer();
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    replies = [refusal, { body: { result: { id: 'e1' } } }];
    server.routes.clear();
    server.routes.set('GET /estimate/e1', () => ({
      body: { result: anOrder() },
      headers: { 'can-be-modified': 'true' },
    }));
    server.routes.set('PUT /estimate/e1', () => replies.shift() ?? { status: 500, body: {} });
    server.routes.set('GET /product', () => ({ body: { result: [] } }));
    server.routes.set('GET /cart', () => ({
      body: { result: [{ ...demoUser.cart, isActive: true, didCheckOut: false, CartProducts: [] }] },
    }));
  });
  const puts = () => server.requests.filter((r) => r.method === 'PUT');

  async function raiseTo3(path: string, user: object) {
    renderOrders(path, user);
    await userEvent.click(await screen.findByRole('button', { name: /Options/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const qty = await screen.findByLabelText('Quantity of Mirrored Bar Front');
    await userEvent.clear(qty);
    await userEvent.type(qty, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Update Order' }));
  }

  it('staff confirm the sub-rental: the same changes go again with overbook: true', async () => {
    await raiseTo3('/admin/orders/estimate/e1', staffUser);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Book anyway (sub-rental)?')).toBeInTheDocument();
    expect(within(dialog).getByRole('listitem')).toHaveTextContent(`${SHORT} (3 asked)`);
    expect(screen.queryByText('There was an error while submitting your request')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Book anyway' }));
    expect(await screen.findByText('Your order has been updated!')).toBeInTheDocument();
    expect(puts().map((r) => r.body)).toEqual([
      { CartProducts: [{ id: 'BAR-FR-001', qty: 3 }] },
      { CartProducts: [{ id: 'BAR-FR-001', qty: 3 }], overbook: true },
    ]);
  });

  it('staff keep editing: nothing more is sent, the edit stays open', async () => {
    await raiseTo3('/admin/orders/estimate/e1', staffUser);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText('Book anyway (sub-rental)?')).not.toBeVisible());
    expect(puts()).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Update Order' })).toBeInTheDocument();
  });

  it('customers only see the reason, never the offer', async () => {
    await raiseTo3('/orders/estimate/e1', demoUser);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('There was an error while submitting your request');
    expect(alert).toHaveTextContent(SHORT);
    expect(screen.queryByText('Book anyway (sub-rental)?')).not.toBeInTheDocument();
    expect(puts()).toHaveLength(1);
  });
});
