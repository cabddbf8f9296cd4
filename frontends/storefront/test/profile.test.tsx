import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import Profile from '../src/features/profile/components/Profile';
import { SUCCESS_BANNER_MS } from '../src/texts';

/** Answers from the local server on a busy machine. */
const LOAD = { timeout: 10_000 };

describe('profile (spec §2, §5)', () => {
  let server: ApiServer;
  let passwordStatus = 200;
  beforeAll(async () => {
    server = await startApiServer({
      [`PUT /user/${demoUser.id}`]: () => ({ status: passwordStatus, body: { result: { message: 'ok' } } }),
      'GET /trucking': () => ({ body: { result: { id: 'trucking', value: 350 } } }),
      'PUT /trucking/trucking': (req) => ({ body: { result: { id: 'trucking', ...(req.body as object) } } }),
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  const renderProfile = (permissions: string) => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <Profile />
        </MemoryRouter>
      </Provider>,
    );
  };

  it('shows the name and e-mail; the password form validates, matches after trimming and saves', async () => {
    renderProfile('customer');
    expect(screen.getByText('Casey Customer')).toBeInTheDocument();
    expect(screen.getByText(demoUser.email)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Change Trucking Fee' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    // antd validates the fields one after another: wait until both messages are there.
    await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(3));
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('Password'), 'ab');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abd');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Password must be at least 3 characters')).toBeInTheDocument();
    expect(await screen.findByText('Password does not match')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'new-secret ');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      password: 'new-secret',
      currentPassword: 'old-secret',
    });
  });

  it("a refused change says 'An error occurred while updating your profile'", async () => {
    passwordStatus = 400;
    renderProfile('customer');
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('Password'), 'abc');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('An error occurred while updating your profile')).toBeInTheDocument();
    passwordStatus = 200;
  });

  /** Waits for a text in real time without moving the fake clock (testing-library's waits would). */
  async function shown(text: string): Promise<HTMLElement> {
    const { setImmediate: realImmediate } = jest.requireActual<typeof import('node:timers')>('node:timers');
    for (let i = 0; i < 5000; i++) {
      const found = screen.queryByText(text);
      if (found) return found;
      await act(() => new Promise<void>((resolve) => realImmediate(resolve)));
    }
    throw new Error(`'${text}' never showed`);
  }

  it.each([
    ['password', 'customer', 0, 'Your password has been changed.'],
    ['trucking fee', 'admin', 1, 'The trucking fee has been changed.'],
  ])('the %s success message shows for 2500 ms (spec §9)', async (_form, permissions, index, text) => {
    renderProfile(permissions);
    if (permissions === 'admin') await screen.findByLabelText('Trucking fee', {}, LOAD);
    // Every password field the form has gets the same value (the server here accepts any).
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type="password"]')) {
      await userEvent.type(input, 'new-secret');
    }
    const submit = screen.getAllByRole('button', { name: 'Submit' })[index] as HTMLElement;
    jest.useFakeTimers();
    try {
      fireEvent.click(submit);
      const banner = await shown(text);
      act(() => jest.advanceTimersByTime(SUCCESS_BANNER_MS - 1));
      expect(banner).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.queryByText(text)).not.toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('an error message stays', async () => {
    passwordStatus = 400;
    renderProfile('customer');
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type="password"]')) {
      await userEvent.type(input, 'abc');
    }
    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
      const banner = await shown('An error occurred while updating your profile');
      act(() => jest.advanceTimersByTime(60_000));
      expect(banner).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
      passwordStatus = 200;
    }
  });

  it('staff also change the trucking fee', async () => {
    renderProfile('admin');
    expect(await screen.findByRole('heading', { name: 'Change Trucking Fee' }, LOAD)).toBeInTheDocument();
    const fee = await screen.findByLabelText('Trucking fee');
    expect(fee).toHaveValue('350.00');
    await userEvent.clear(fee);
    await userEvent.type(fee, '400');
    await userEvent.click(screen.getAllByRole('button', { name: 'Submit' })[1] as HTMLElement);
    expect(await screen.findByText('The trucking fee has been changed.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.url === '/api/trucking/trucking')?.body).toEqual({ value: 400 });
  });
});
