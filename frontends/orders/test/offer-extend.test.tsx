import {
  ACCEPTANCE_MESSAGES,
  type AcceptanceView,
  EXTEND_OFFER_TEXTS,
  shortLineText,
} from '@decor/contracts/rules';
import { http } from '@decor/web-core';
import {
  type ApiServer,
  installIntersectionObserver,
  type Recorded,
  type Reply,
  startApiServer,
} from '@decor/web-core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '../src/features/orders/types';
import { anOrder, renderOrders, staffUser } from './support';

/** Issue 30: an offer that ended unaccepted — the list's mark and filter, staff's extension, the customer's page. */

const ENDED = '2030-05-01T12:00:00.000Z';
const NEW_END = '2030-06-14T12:00:00.000Z';

function aView(over: Partial<AcceptanceView> = {}): AcceptanceView {
  return {
    state: 'expired',
    estimateVersion: 'v-1',
    deposit: { amount: 229.71, currency: 'usd' },
    agreement: { version: 3, text: 'Strikes after 11:00pm are charged extra labor.' },
    expiresAt: ENDED,
    cardRequired: true,
    ...over,
  };
}

const query = (request: Recorded) => new URL(request.url, 'http://x').searchParams;

describe('an offer that ended unaccepted (issue 30)', () => {
  let server: ApiServer;
  let scroll: ReturnType<typeof installIntersectionObserver>;
  let estimate: Order;
  let view: AcceptanceView;
  let extendReply: (request: Recorded) => Reply;

  beforeAll(async () => {
    server = await startApiServer();
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    scroll = installIntersectionObserver();
    server.requests.length = 0;
    server.routes.clear();
    estimate = anOrder();
    view = aView();
    extendReply = (request) => {
      view = aView({ state: 'awaiting', expiresAt: NEW_END });
      expect(request.body).toEqual({ days: 21 });
      return { body: { result: view } };
    };
    server.routes.set('GET /estimate/e1', () => ({ body: { result: estimate } }));
    server.routes.set('GET /estimate/e1/acceptance', () => ({ body: { result: view } }));
    server.routes.set('POST /estimate/e1/acceptance/extend', (request) => extendReply(request));
    server.routes.set('GET /settings/acceptance', () => ({
      body: {
        result: { depositPercent: 25, validityDays: 21, agreementText: 'Terms', agreementVersion: 3 },
      },
    }));
  });
  afterEach(() => scroll.uninstall());

  const extendPosts = () => server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/extend'));

  describe('the orders list', () => {
    const rows: Order[] = [
      anOrder({
        id: 'e3',
        DocNumber: '1003',
        acceptance: { state: 'expired', depositState: null, expiresAt: ENDED },
      }),
      anOrder({
        id: 'e2',
        DocNumber: '1002',
        acceptance: { state: 'awaiting', depositState: null, expiresAt: NEW_END },
      }),
      anOrder({ id: 'e1', DocNumber: '1001', status: 'Pending', isInQbo: false }),
    ];
    beforeEach(() => {
      server.routes.set('GET /estimate', (request) => {
        const wanted = query(request).get('acceptance');
        const shown = wanted ? rows.filter((o) => (o.acceptance?.state ?? 'not-offered') === wanted) : rows;
        return { body: { result: shown }, headers: { total_count: String(shown.length) } };
      });
      server.routes.set('GET /invoice', () => ({ body: { result: [] }, headers: { total_count: '0' } }));
    });
    const listCalls = (path: string) => server.requests.filter((r) => r.url.split('?')[0] === `/api${path}`);
    const row = (doc: string) => screen.getByText(doc, { selector: 'a' }).closest('tr') as HTMLElement;

    it("marks an expired offer 'Expired' beside the other marks, for staff and for the customer", async () => {
      const staffList = renderOrders('/admin/orders', staffUser);
      await screen.findByText('1003', { selector: 'a' });
      expect(within(row('1003')).getByTestId('acceptance-tag')).toHaveTextContent(/^Expired$/);
      expect(within(row('1002')).getByTestId('acceptance-tag')).toHaveTextContent(
        "Awaiting the customer's acceptance",
      );
      expect(within(row('1001')).queryByTestId('acceptance-tag')).not.toBeInTheDocument();
      staffList.unmount();

      renderOrders('/orders');
      await screen.findByText('1003', { selector: 'a' });
      expect(within(row('1003')).getByTestId('acceptance-tag')).toHaveTextContent(/^Expired$/);
      expect(within(row('1002')).getByTestId('acceptance-tag')).toHaveTextContent(
        'Waiting for your acceptance',
      );
      // The filter is staff's.
      expect(screen.queryByRole('combobox', { name: 'Filter by acceptance' })).not.toBeInTheDocument();
    });

    it("staff's Acceptance filter sets acceptance= on the list query, beside the status filter", async () => {
      renderOrders('/admin/orders', staffUser);
      await screen.findByText('1003', { selector: 'a' });
      expect(query(listCalls('/estimate')[0] as Recorded).has('acceptance')).toBe(false);
      const filter = screen.getByRole('combobox', { name: 'Filter by acceptance' });
      fireEvent.mouseDown(filter);
      await screen.findByTitle('Signature voided');
      const offered = [...document.querySelectorAll('.ant-select-item-option')].map((o) =>
        o.getAttribute('title'),
      );
      expect(offered).toEqual(['All', 'Awaiting', 'Accepted', 'Expired', 'Signature voided', 'Not offered']);
      await userEvent.click(screen.getByTitle('Expired'));
      await waitFor(() => expect(screen.queryByText('1002', { selector: 'a' })).not.toBeInTheDocument());
      expect(screen.getByText('1003', { selector: 'a' })).toBeInTheDocument();
      expect(query(listCalls('/estimate').at(-1) as Recorded).get('acceptance')).toBe('expired');

      // With a status too: both go.
      fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filter by status' }));
      await userEvent.click(await screen.findByTitle('Open'));
      await waitFor(() =>
        expect(query(listCalls('/estimate').at(-1) as Recorded).get('status')).toBe('Open'),
      );
      expect(query(listCalls('/estimate').at(-1) as Recorded).get('acceptance')).toBe('expired');

      fireEvent.mouseDown(filter);
      await userEvent.click(await screen.findByTitle('Not offered'));
      await waitFor(() =>
        expect(query(listCalls('/estimate').at(-1) as Recorded).get('acceptance')).toBe('not-offered'),
      );
      fireEvent.mouseDown(filter);
      // 'All' of this filter's choices (the status filter has one too).
      const choices = (await screen.findByTitle('Signature voided')).closest('.ant-select-dropdown');
      await userEvent.click(within(choices as HTMLElement).getByTitle('All'));
      await waitFor(() =>
        expect(query(listCalls('/estimate').at(-1) as Recorded).has('acceptance')).toBe(false),
      );

      // Invoices have no acceptance: no filter there, and their query names none.
      await userEvent.click(screen.getByRole('tab', { name: 'Invoices' }));
      await waitFor(() => expect(listCalls('/invoice').length).toBeGreaterThan(0));
      expect(screen.queryByRole('combobox', { name: 'Filter by acceptance' })).not.toBeInTheDocument();
      expect(query(listCalls('/invoice').at(-1) as Recorded).has('acceptance')).toBe(false);
    });
  });

  describe("staff's Extend", () => {
    async function openExtend() {
      const region = await screen.findByRole('region', { name: 'Acceptance' });
      await userEvent.click(within(region).getByRole('button', { name: EXTEND_OFFER_TEXTS.action }));
      return screen.findByRole('dialog', { name: EXTEND_OFFER_TEXTS.title });
    }

    it("extends an expired offer by the shop's validity days and shows the new end", async () => {
      renderOrders('/admin/orders/estimate/e1', staffUser);
      const region = await screen.findByRole('region', { name: 'Acceptance' });
      expect(within(region).getByTestId('acceptance-state')).toHaveTextContent('Expired without acceptance');
      expect(within(region).getByTestId('acceptance-expires')).toHaveTextContent(
        /^The acceptance period ended on /,
      );
      const dialog = await openExtend();
      const days = within(dialog).getByRole('spinbutton', { name: EXTEND_OFFER_TEXTS.days });
      // The shop's validity days once read.
      await waitFor(() => expect(days).toHaveValue('21'));
      expect(days).toHaveAccessibleDescription(EXTEND_OFFER_TEXTS.daysHelp);
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }));
      expect(
        await within(region).findByText(/^Extended: the estimate can be accepted until /),
      ).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // The card follows: awaiting again, until the new end.
      await waitFor(() =>
        expect(within(region).getByTestId('acceptance-state')).toHaveTextContent(
          "Awaiting the customer's acceptance",
        ),
      );
      expect(within(region).getByTestId('acceptance-expires')).toHaveTextContent(/^Can be accepted until /);
      expect(extendPosts()).toHaveLength(1);
    });

    it('a 409 for stock shows every short line in the dialog and changes nothing; other refusals say why', async () => {
      const lines = [
        {
          productId: 'BAR-FR-001',
          name: 'Mirrored Bar Front',
          requested: 2,
          available: 1,
          day: '2030-06-20',
        },
        { productId: 'CHR-1', name: 'Chiavari Chairs', requested: 80, available: 12, day: '2030-06-21' },
      ];
      extendReply = () => ({
        status: 409,
        body: { message: shortLineText(1, 'Mirrored Bar Front', '2030-06-20'), shortLines: lines },
      });
      renderOrders('/admin/orders/estimate/e1', staffUser);
      let dialog = await openExtend();
      const days = within(dialog).getByRole('spinbutton', { name: EXTEND_OFFER_TEXTS.days });
      await waitFor(() => expect(days).toHaveValue('21'));
      await userEvent.clear(days);
      await userEvent.type(days, '7');
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }));
      const alert = await within(dialog).findByRole('alert');
      expect(alert).toHaveTextContent(EXTEND_OFFER_TEXTS.failed);
      expect(
        within(alert)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        'Only 1 Mirrored Bar Front are available on Thursday, June 20th, 2030 (2 asked)',
        'Only 12 Chiavari Chairs are available on Friday, June 21st, 2030 (80 asked)',
      ]);
      expect(extendPosts().map((r) => r.body)).toEqual([{ days: 7 }]);
      // Still expired: the dialog stays for another try or Cancel.
      expect(screen.getByTestId('acceptance-state')).toHaveTextContent('Expired without acceptance');
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.keep }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      extendReply = () => ({ status: 409, body: { message: ACCEPTANCE_MESSAGES.alreadyAccepted } });
      dialog = await openExtend();
      // A new opening forgets the last refusal.
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(ACCEPTANCE_MESSAGES.alreadyAccepted);

      // No answer at all is not silent either.
      extendReply = () => ({ status: 500, body: { message: 'boom' } });
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }));
      await waitFor(() =>
        expect(within(dialog).getByRole('alert')).toHaveTextContent(EXTEND_OFFER_TEXTS.failed),
      );
    });

    it('an empty number of days is asked again, not sent', async () => {
      renderOrders('/admin/orders/estimate/e1', staffUser);
      const dialog = await openExtend();
      const days = within(dialog).getByRole('spinbutton', { name: EXTEND_OFFER_TEXTS.days });
      await waitFor(() => expect(days).toHaveValue('21'));
      await userEvent.clear(days);
      await userEvent.click(within(dialog).getByRole('button', { name: EXTEND_OFFER_TEXTS.confirm }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(EXTEND_OFFER_TEXTS.daysInvalid);
      expect(extendPosts()).toHaveLength(0);
    });

    it('an offer awaiting acceptance can be extended too; an accepted one and the customer get no Extend', async () => {
      view = aView({ state: 'awaiting', expiresAt: NEW_END });
      const shown = renderOrders('/admin/orders/estimate/e1', staffUser);
      const region = await screen.findByRole('region', { name: 'Acceptance' });
      expect(within(region).getByRole('button', { name: EXTEND_OFFER_TEXTS.action })).toBeInTheDocument();
      shown.unmount();

      view = aView({
        state: 'accepted',
        accepted: {
          signerName: 'Casey Customer',
          at: '2030-05-20T15:04:00.000Z',
          agreementVersion: 3,
          pdf: null,
          depositState: 'authorised',
        },
      });
      const accepted = renderOrders('/admin/orders/estimate/e1', staffUser);
      const card = await screen.findByRole('region', { name: 'Acceptance' });
      expect(within(card).queryByRole('button', { name: EXTEND_OFFER_TEXTS.action })).not.toBeInTheDocument();
      accepted.unmount();

      view = aView();
      renderOrders('/orders/estimate/e1');
      const customer = await screen.findByRole('region', { name: 'Acceptance' });
      expect(
        within(customer).queryByRole('button', { name: EXTEND_OFFER_TEXTS.action }),
      ).not.toBeInTheDocument();
    });
  });

  it("the customer's page of an expired offer says it can no longer be accepted, with no Review and accept", async () => {
    renderOrders('/orders/estimate/e1');
    const region = await screen.findByRole('region', { name: 'Acceptance' });
    expect(within(region).getByTestId('acceptance-state')).toHaveTextContent(ACCEPTANCE_MESSAGES.expired);
    expect(within(region).queryByRole('button', { name: 'Review and accept' })).not.toBeInTheDocument();
    expect(server.requests.some((r) => r.url.startsWith('/api/settings'))).toBe(false);
  });

  it("a voided signature is said once on staff's card; the notice lists what changed", async () => {
    view = aView({ state: 'voided', expiresAt: NEW_END, changed: ['eventDate', 'CartProducts'] });
    renderOrders('/admin/orders/estimate/e1', staffUser);
    const region = await screen.findByRole('region', { name: 'Acceptance' });
    expect(within(region).getAllByText('Signature voided by a change')).toHaveLength(1);
    expect(within(region).getByText('What changed since it was signed:')).toBeInTheDocument();
    expect(within(region).getByText('Event Date, Items and quantities')).toBeInTheDocument();
  });

  it("a deposit kept when its invoice was voided reads 'kept'; one whose refund is on its way, 'captured'", async () => {
    const voidedWith = (depositOnVoid: 'keep' | 'refund'): AcceptanceView =>
      aView({
        state: 'accepted',
        accepted: {
          signerName: 'Casey Customer',
          at: '2030-05-20T15:04:00.000Z',
          agreementVersion: 3,
          pdf: null,
          depositState: 'captured',
          depositOnVoid,
        },
      });
    view = voidedWith('keep');
    const shown = renderOrders('/admin/orders/estimate/e1', staffUser);
    expect(await screen.findByTestId('acceptance-deposit')).toHaveTextContent(/^Deposit: \$229\.71, kept$/);
    shown.unmount();
    view = voidedWith('refund');
    renderOrders('/orders/estimate/e1');
    expect(await screen.findByTestId('acceptance-deposit')).toHaveTextContent(
      /^Deposit: \$229\.71, captured$/,
    );
  });
});
