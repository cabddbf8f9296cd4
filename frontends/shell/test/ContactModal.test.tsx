import { CONTACT_HONEYPOT, CONTACT_TEXTS } from '@decor/contracts/rules';
import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter } from '@decor/web-core/router';
import { type ApiServer, demoUser, type Reply, startApiServer } from '@decor/web-core/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { App } from '../src/app';
import ContactModal, { CLOSE_AFTER_SUCCESS_MS } from '../src/features/contact/components/ContactModal';
import { ContactProvider } from '../src/features/contact/components/contact';
import { renderAt } from './support';

jest.mock('../src/remotes', () => ({ loadScreen: jest.fn() }));

describe('the contact form (spec §7 POST /send/info)', () => {
  let server: ApiServer;
  let reply: () => Reply;
  const sent = () => server.requests.filter((r) => r.url === '/api/send/info');

  beforeAll(async () => {
    server = await startApiServer({
      'POST /send/info': () => reply(),
      'GET /categories': () => ({ body: { result: { categories: [], subcategories: [] } } }),
      'GET /product': () => ({ body: { result: [] } }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    reply = () => ({ body: { result: { queued: true } } });
  });

  const open = (store = createAppStore()) => {
    const onClose = jest.fn();
    renderAt('/', <ContactModal open onClose={onClose} />, store);
    return { dialog: screen.getByRole('dialog', { name: CONTACT_TEXTS.title }), onClose };
  };

  const fill = async (dialog: HTMLElement, values: Record<string, string>) => {
    const user = userEvent.setup();
    for (const [label, value] of Object.entries(values)) {
      const field = within(dialog).getByLabelText(label);
      await user.clear(field);
      // Pasted, not typed key by key: antd re-renders on each key, slow on a busy machine.
      await user.paste(value);
    }
    return user;
  };

  it("is reached from the footer and from the home page's 'Contact us'", async () => {
    const user = userEvent.setup();
    render(
      <Provider store={createAppStore()}>
        <MemoryRouter initialEntries={['/']}>
          <App />
        </MemoryRouter>
      </Provider>,
    );
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    await user.click(within(footer).getByRole('button', { name: 'Contact us' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact us' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const home = await screen.findByRole('region', { name: 'Planning an event?' });
    await user.click(within(home).getByRole('button', { name: 'Contact us' }));
    expect(await screen.findByRole('dialog', { name: 'Contact us' })).toBeInTheDocument();
  });

  it('empty: the spec’s field texts, the first invalid field focused, nothing sent', async () => {
    const { dialog } = open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(within(dialog).getByText('Please provide a valid email address')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Name (required)')).toHaveFocus());
    expect(sent()).toHaveLength(0);
  });

  it('a malformed e-mail or a blank message is refused with the same texts as the server', async () => {
    const { dialog } = open();
    await fill(dialog, {
      'Name (required)': 'Robin',
      'Email (required)': 'robin@',
      'Message (required)': '   ',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Please provide a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('This field is required')).toBeInTheDocument();
    expect(sent()).toHaveLength(0);
  });

  it('a signed-in user finds name, e-mail and phone filled in', () => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, phone: '+1 555 0142' }, token: 't' }));
    const { dialog } = open(store);
    expect(within(dialog).getByLabelText('Name (required)')).toHaveValue('Casey Customer');
    expect(within(dialog).getByLabelText('Email (required)')).toHaveValue('customer@decor.example');
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('+1 555 0142');
    expect(within(dialog).getByLabelText('Message (required)')).toHaveValue('');
  });

  it('sends the trimmed fields with the event date and an Idempotency-Key; the success text shows, then the form closes', async () => {
    let answeredAt = 0;
    reply = () => {
      answeredAt = Date.now();
      return { body: { result: { queued: true } } };
    };
    const { dialog, onClose } = open();
    // What the close saw, when it came (a late look at the text must not race the close timer).
    let closedAt = 0;
    let sentShownAtClose = false;
    onClose.mockImplementation(() => {
      closedAt = Date.now();
      sentShownAtClose = within(dialog).queryByText(CONTACT_TEXTS.sent) !== null;
    });
    const user = await fill(dialog, {
      'Name (required)': ' Robin Planner ',
      'Email (required)': 'robin@planners.example',
      'Message (required)': 'Do you have 120 gold chargers?',
    });
    const year = new Date().getFullYear() + 1;
    await user.click(within(dialog).getByLabelText('Event Date'));
    await user.paste(`June 12, ${year}`);
    await user.keyboard('{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(CONTACT_TEXTS.sent)).toBeInTheDocument();
    const [request] = sent();
    expect(request?.body).toEqual({
      name: 'Robin Planner',
      email: 'robin@planners.example',
      eventDate: `${year}-06-12`,
      message: 'Do you have 120 gold chargers?',
    });
    expect(request?.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: CLOSE_AFTER_SUCCESS_MS + 2000 });
    expect(sentShownAtClose).toBe(true);
    // Less a little: Node starts a timer from the event loop's cached clock, a few ms behind Date.now().
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(CLOSE_AFTER_SUCCESS_MS - 100);
  });

  it.each([
    ['429', { status: 429, body: { message: CONTACT_TEXTS.tooMany } }, CONTACT_TEXTS.tooMany],
    [
      '400',
      { status: 400, body: { message: 'Name: This field is required' } },
      'Name: This field is required',
    ],
    ['500', { status: 500, body: { message: 'boom' } }, CONTACT_TEXTS.failed],
  ])('a %s answer shows a clear error and keeps what was typed', async (_status, answer, text) => {
    reply = () => answer;
    const { dialog, onClose } = open();
    await fill(dialog, {
      'Name (required)': 'Robin',
      'Email (required)': 'robin@planners.example',
      'Message (required)': 'Hello',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    expect(within(dialog).getByLabelText('Message (required)')).toHaveValue('Hello');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('the honeypot is out of sight, of the tab order and of the accessibility tree; what a bot types in it is sent', async () => {
    const { dialog } = open();
    const trap = dialog.querySelector<HTMLInputElement>(`input#${CONTACT_HONEYPOT}`);
    expect(trap).not.toBeNull();
    expect(trap?.tabIndex).toBe(-1);
    expect(trap?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(within(dialog).queryByRole('textbox', { name: /Website/ })).not.toBeInTheDocument();
    const user = await fill(dialog, {
      'Name (required)': 'Bot',
      'Email (required)': 'bot@spam.example',
      'Message (required)': 'Cheap pills',
    });
    await user.click(trap as HTMLInputElement);
    await user.paste('https://spam.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect((sent()[0]?.body as Record<string, string> | undefined)?.[CONTACT_HONEYPOT]).toBe(
      'https://spam.example',
    );
  });

  it('ContactProvider renders nothing until opened', () => {
    render(
      <Provider store={createAppStore()}>
        <ContactProvider>
          <p>page</p>
        </ContactProvider>
      </Provider>,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
