import { ACCEPTANCE_MESSAGES, type AcceptanceView, DEPOSIT_ON_VOID_TEXTS } from '@decor/contracts/rules';
import { http } from '@decor/web-core';
import { type ApiServer, type Recorded, type Reply, startApiServer } from '@decor/web-core/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '../src/features/orders/types';
import { anOrder, renderOrders, staffUser } from './support';

const FRAME = 'http://payments.example.test:4590/elements';
const FRAME_ORIGIN = 'http://payments.example.test:4590';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk';

// jsdom has no 2D canvas: a context that records nothing, and a PNG of its own.
beforeAll(() => {
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (store, name) => (name in store ? store[name] : () => undefined),
    set: (store, name, value) => {
      store[name] = value;
      return true;
    },
  });
  HTMLCanvasElement.prototype.getContext = (() => context) as never;
  HTMLCanvasElement.prototype.toDataURL = () => PNG;
});

function aView(over: Partial<AcceptanceView> = {}): AcceptanceView {
  return {
    state: 'awaiting',
    estimateVersion: 'v-1',
    deposit: { amount: 229.71, currency: 'usd' },
    agreement: { version: 3, text: 'Strikes after 11:00pm are charged extra labor.' },
    expiresAt: '2030-06-01T12:00:00.000Z',
    paymentFrameUrl: FRAME,
    cardRequired: true,
    ...over,
  };
}

describe('accepting an estimate online (issue 30)', () => {
  let server: ApiServer;
  let estimate: Order;
  let view: AcceptanceView;
  let postReply: (request: Recorded) => Reply | Promise<Reply>;

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
    estimate = anOrder();
    view = aView();
    postReply = () => ({
      status: 201,
      body: {
        result: aView({
          state: 'accepted',
          accepted: {
            signerName: 'Casey Customer',
            at: '2030-05-20T15:04:00.000Z',
            agreementVersion: 3,
            pdf: null,
            depositState: 'authorised',
          },
        }),
      },
    });
    server.routes.clear();
    server.routes.set('GET /estimate/e1', () => ({ body: { result: estimate } }));
    server.routes.set('GET /estimate/e1/acceptance', () => ({ body: { result: view } }));
    server.routes.set('POST /estimate/e1/acceptance', (request) => postReply(request));
    server.routes.set('GET /estimate', () => ({
      body: { result: [estimate] },
      headers: { total_count: '1' },
    }));
  });

  const posts = () => server.requests.filter((r) => r.method === 'POST');

  /** The provider's frame posts the payment method, from its own window and origin. */
  function cardEntered(id = 'pm_card_visa', origin = FRAME_ORIGIN) {
    const frame = screen.getByTitle('Card entry by the payment provider') as HTMLIFrameElement;
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'decor-payment-method', paymentMethod: id },
          origin,
          source: frame.contentWindow,
        }),
      );
    });
  }

  async function fillIn() {
    await userEvent.type(await screen.findByLabelText('Full name'), 'Casey Customer');
    // Keyboard users type their signature: the name drawn on the canvas.
    await userEvent.click(screen.getByRole('button', { name: 'Type my signature instead' }));
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'I have read and agree to the rental agreement' }),
    );
    cardEntered();
    await screen.findByText('Card details entered.');
  }

  it("the customer's order shows Review and accept, which opens the accept screen", async () => {
    renderOrders('/orders/estimate/e1');
    const region = await screen.findByRole('region', { name: 'Acceptance' });
    expect(within(region).getByText('Waiting for your acceptance')).toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Review and accept' }));
    expect(screen.getByLabelText('location')).toHaveTextContent('/orders/estimate/e1/accept');
    expect(
      await screen.findByRole('heading', { name: 'Review and accept Estimate #1001' }),
    ).toBeInTheDocument();
  });

  it('the accept screen shows the estimate as booked, the agreement with its version and the deposit', async () => {
    renderOrders('/orders/estimate/e1/accept');
    const cart = await screen.findByRole('region', { name: 'Cart' });
    expect(within(cart).getByText('Mirrored Bar Front')).toBeInTheDocument();
    expect(within(cart).getByTestId('order-trucking-fee')).toHaveTextContent('$350.00');
    expect(within(cart).getByTestId('order-total')).toHaveTextContent('$918.85');
    expect(screen.getByRole('region', { name: 'Event Details' })).toHaveTextContent(
      'Thursday, June 20th, 2030',
    );
    const agreement = screen.getByRole('region', { name: 'Rental agreement (version 3)' });
    expect(agreement).toHaveTextContent('Strikes after 11:00pm are charged extra labor.');
    expect(screen.getByTestId('deposit-amount')).toHaveTextContent('$229.71');
    const frame = screen.getByTitle('Card entry by the payment provider');
    // Our origin (where the frame posts the card) and the deposit (what Stripe's Payment Element is set up for).
    expect(frame.getAttribute('src')).toBe(
      `${FRAME}?origin=${encodeURIComponent(window.location.origin)}&amount=22971&currency=usd`,
    );
    expect(screen.getByRole('img', { name: /Signature pad/ })).toBeInTheDocument();
  });

  it('Accept says what is missing and sends nothing until name, signature, agreement and card are there', async () => {
    renderOrders('/orders/estimate/e1/accept');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('your full name');
    expect(alert).toHaveTextContent('your signature');
    expect(alert).toHaveTextContent("the 'I have read and agree' box");
    expect(alert).toHaveTextContent('the card details');
    expect(posts()).toHaveLength(0);
  });

  it('a message from any other origin is not taken as the card', async () => {
    renderOrders('/orders/estimate/e1/accept');
    await screen.findByTitle('Card entry by the payment provider');
    cardEntered('pm_forged', 'http://evil.example.test');
    expect(screen.queryByText('Card details entered.')).not.toBeInTheDocument();
  });

  it('Accept posts once with an Idempotency-Key (a double click too), then shows Accepted with signer and time', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const first = postReply;
    postReply = async (request) => {
      await answered;
      return first(request);
    };
    renderOrders('/orders/estimate/e1/accept');
    await fillIn();
    const accept = screen.getByRole('button', { name: 'Accept' });
    fireEvent.click(accept);
    fireEvent.click(accept);
    await waitFor(() => expect(posts()).toHaveLength(1));
    answer();
    expect(await screen.findByText('Accepted')).toBeInTheDocument();
    expect(screen.getByText(/^Signed by Casey Customer on /)).toBeInTheDocument();
    expect(posts()).toHaveLength(1);
    const [post] = posts();
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post?.body).toEqual({
      estimateVersion: 'v-1',
      signerName: 'Casey Customer',
      signature: PNG,
      agree: true,
      paymentMethod: 'pm_card_visa',
    });
  });

  it("a declined card (402) shows the provider's message; the next card is a new request (new key)", async () => {
    postReply = () => ({ status: 402, body: { message: 'Your card was declined.' } });
    renderOrders('/orders/estimate/e1/accept');
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument();
    // The spent card is gone: the frame starts over.
    expect(screen.queryByText('Card details entered.')).not.toBeInTheDocument();
    cardEntered('pm_card_mastercard');
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    const [one, two] = posts();
    expect(one?.headers['idempotency-key']).not.toBe(two?.headers['idempotency-key']);
    expect((two?.body as { paymentMethod?: string } | undefined)?.paymentMethod).toBe('pm_card_mastercard');
  });

  it('a changed estimate (409) says so and offers to reload it; 503 shows its message', async () => {
    postReply = () => ({ status: 409, body: { message: ACCEPTANCE_MESSAGES.changed } });
    renderOrders('/orders/estimate/e1/accept');
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(ACCEPTANCE_MESSAGES.changed)).toBeInTheDocument();
    view = aView({ estimateVersion: 'v-2' });
    const gets = () => server.requests.filter((r) => r.url.endsWith('/acceptance') && r.method === 'GET');
    const before = gets().length;
    await userEvent.click(screen.getByRole('button', { name: 'Reload the estimate' }));
    await waitFor(() => expect(gets().length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByText(ACCEPTANCE_MESSAGES.changed)).not.toBeInTheDocument());

    postReply = () => ({ status: 503, body: { message: ACCEPTANCE_MESSAGES.providerDown } });
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(ACCEPTANCE_MESSAGES.providerDown)).toBeInTheDocument();
    // The reloaded version is the one sent.
    expect((posts().at(-1)?.body as { estimateVersion?: string } | undefined)?.estimateVersion).toBe('v-2');
  });

  it('a voided signature says what changed', async () => {
    view = aView({ state: 'voided', changed: ['eventDate', 'CartProducts'] });
    renderOrders('/orders/estimate/e1/accept');
    const notice = (await screen.findByText(ACCEPTANCE_MESSAGES.voided)).closest('.ant-alert') as HTMLElement;
    const changed = within(notice)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(changed).toEqual(['Event Date', 'Items and quantities']);
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
  });

  it('signing again with the deposit still held: no card frame, and the post names no card', async () => {
    const { paymentFrameUrl: _frame, ...rest } = aView({ state: 'voided', changed: ['eventDate'] });
    view = { ...rest, cardRequired: false };
    renderOrders('/orders/estimate/e1/accept');
    await userEvent.type(await screen.findByLabelText('Full name'), 'Casey Customer');
    await userEvent.click(screen.getByRole('button', { name: 'Type my signature instead' }));
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'I have read and agree to the rental agreement' }),
    );
    expect(document.querySelector('iframe')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).not.toHaveProperty('paymentMethod');
  });

  it('an expired offer cannot be accepted; a failed load says so', async () => {
    view = aView({ state: 'expired' });
    const shown = renderOrders('/orders/estimate/e1/accept');
    expect(await screen.findByText(ACCEPTANCE_MESSAGES.expired)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    shown.unmount();
    server.routes.set('GET /estimate/e1/acceptance', () => ({ status: 403, body: { message: 'Forbidden' } }));
    renderOrders('/orders/estimate/e1/accept');
    expect(await screen.findByText('An error occurred while fetching the estimate')).toBeInTheDocument();
  });

  it("staff's order page shows who signed, when, and the deposit's state; the list marks it", async () => {
    view = aView({
      state: 'accepted',
      accepted: {
        signerName: 'Casey Customer',
        at: '2030-05-20T15:04:00.000Z',
        agreementVersion: 3,
        pdf: '/api/estimate/e1/agreement.pdf',
        depositState: 'authorised',
      },
    });
    const shown = renderOrders('/admin/orders/estimate/e1', staffUser);
    const region = await screen.findByRole('region', { name: 'Acceptance' });
    expect(within(region).getByTestId('acceptance-state')).toHaveTextContent('Accepted');
    expect(within(region).getByTestId('acceptance-signer')).toHaveTextContent(
      /^Signed by Casey Customer on /,
    );
    expect(within(region).getByTestId('acceptance-deposit')).toHaveTextContent(
      'Deposit: $229.71, authorised (held on the card)',
    );
    expect(within(region).getByRole('button', { name: 'Signed agreement (PDF)' })).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Review and accept' })).not.toBeInTheDocument();
    shown.unmount();

    // The customer's list: an Open estimate's acceptance read when the list answer does not carry it…
    view = aView();
    const list = renderOrders('/orders');
    expect(await screen.findByTestId('acceptance-tag')).toHaveTextContent('Waiting for your acceptance');
    list.unmount();
    // …and taken from the answer when it does.
    estimate = anOrder({ acceptance: { state: 'accepted', depositState: 'authorised', expiresAt: null } });
    renderOrders('/orders');
    expect(await screen.findByTestId('acceptance-tag')).toHaveTextContent('Accepted');
  });

  describe("cancelling an invoice whose estimate's deposit was taken", () => {
    const puts = () => server.requests.filter((r) => r.method === 'PUT');
    const captured = (depositState: 'captured' | 'refunded' | 'authorised') =>
      aView({
        state: 'accepted',
        accepted: {
          signerName: 'Casey Customer',
          at: '2030-05-20T15:04:00.000Z',
          agreementVersion: 3,
          pdf: null,
          depositState,
        },
      });
    beforeEach(() => {
      const invoice = anOrder({ id: 'i1', DocNumber: '5001', EstimateId: 'e1', hasInvoice: undefined });
      server.routes.set('GET /invoice/i1', () => ({ body: { result: invoice } }));
      server.routes.set('PUT /invoice/i1', () => ({ body: { result: { id: 'i1' } } }));
    });

    async function openCancel() {
      await userEvent.click(await screen.findByRole('button', { name: /Options/ }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Cancel Order' }));
      return screen.findByRole('dialog');
    }

    it("staff choose refund or keep in the one confirmation; the invoice's Acceptance card shows the deposit", async () => {
      view = captured('captured');
      renderOrders('/admin/orders/invoice/i1', staffUser);
      const region = await screen.findByRole('region', { name: 'Acceptance' });
      expect(within(region).getByTestId('acceptance-deposit')).toHaveTextContent(
        'Deposit: $229.71, captured',
      );

      let dialog = await openCancel();
      expect(within(dialog).getByText('Cancel this order?')).toBeInTheDocument();
      expect(
        within(dialog).getByText('The order will be voided. This cannot be undone.'),
      ).toBeInTheDocument();
      const choice = within(dialog).getByRole('radiogroup', { name: DEPOSIT_ON_VOID_TEXTS.question });
      expect(within(choice).getAllByRole('radio')).toHaveLength(2);
      // Nothing chosen: the void cannot be confirmed (the server would refuse it).
      const confirm = within(dialog).getByRole('button', { name: 'Yes, cancel the order' });
      expect(confirm).toBeDisabled();
      await userEvent.click(within(choice).getByRole('radio', { name: DEPOSIT_ON_VOID_TEXTS.refund }));
      expect(confirm).toBeEnabled();
      // Keeping the order forgets the choice.
      await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
      expect(puts()).toHaveLength(0);

      dialog = await openCancel();
      await waitFor(() =>
        expect(within(dialog).getByRole('radio', { name: DEPOSIT_ON_VOID_TEXTS.refund })).not.toBeChecked(),
      );
      expect(within(dialog).getByRole('button', { name: 'Yes, cancel the order' })).toBeDisabled();
      await userEvent.click(within(dialog).getByRole('radio', { name: DEPOSIT_ON_VOID_TEXTS.keep }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel the order' }));
      expect(await screen.findByText('The order has been cancelled.')).toBeInTheDocument();
      expect(puts().map((r) => r.body)).toEqual([{ status: 'Voided', depositAction: 'keep' }]);
    });

    it("no deposit taken (held only): the spec's confirmation alone, and the void names no deposit", async () => {
      view = captured('authorised');
      renderOrders('/admin/orders/invoice/i1', staffUser);
      await screen.findByRole('region', { name: 'Acceptance' });
      const dialog = await openCancel();
      expect(within(dialog).queryByRole('radiogroup')).not.toBeInTheDocument();
      expect(within(dialog).queryByText(DEPOSIT_ON_VOID_TEXTS.question)).not.toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel the order' }));
      expect(await screen.findByText('The order has been cancelled.')).toBeInTheDocument();
      expect(puts().map((r) => r.body)).toEqual([{ status: 'Voided' }]);
    });

    it("a refunded deposit shows on the invoice's Acceptance card; an invoice of an estimate never accepted shows none", async () => {
      view = captured('refunded');
      const shown = renderOrders('/orders/invoice/i1');
      const region = await screen.findByRole('region', { name: 'Acceptance' });
      expect(within(region).getByTestId('acceptance-deposit')).toHaveTextContent(
        'Deposit: $229.71, refunded',
      );
      expect(within(region).queryByRole('button', { name: 'Review and accept' })).not.toBeInTheDocument();
      shown.unmount();

      view = aView({ state: 'not-offered' });
      server.requests.length = 0;
      renderOrders('/admin/orders/invoice/i1', staffUser);
      expect(await screen.findByRole('heading', { name: 'Invoice #5001' })).toBeInTheDocument();
      await waitFor(() =>
        expect(server.requests.some((r) => r.url.endsWith('/estimate/e1/acceptance'))).toBe(true),
      );
      // The answer has had time to render.
      await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
      expect(screen.queryByRole('region', { name: 'Acceptance' })).not.toBeInTheDocument();
    });
  });
});
