import { http } from '@decor/web-core';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LoginModal, {
  CLOSE_AFTER_MS,
  externalSignIn,
  LOGIN_TEXTS,
} from '../src/features/frame/components/LoginModal';
import { renderAt } from './support';

describe('login modal (spec §2, §4, §5, §8)', () => {
  let server: ApiServer;
  let signInReply: () => { status: number; body: unknown; headers?: Record<string, string> };

  beforeAll(async () => {
    server = await startApiServer({
      'POST /auth/user': () => signInReply(),
      'GET /auth/jwt': () => ({ body: { result: demoUser } }),
      'POST /send/reset': () => ({ body: { result: { message: 'ok' } } }),
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

  const open = () => {
    const onClose = jest.fn();
    const view = renderAt('/', <LoginModal open onClose={onClose} />);
    return { ...view, onClose };
  };

  /**
   * Types the e-mail and password, checks both arrived whole (a keystroke lost under load then fails
   * here, by name, rather than as a missing answer later) and submits with Enter.
   */
  const signInWith = async (email: string, password: string) => {
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), email);
    await user.type(screen.getByLabelText('Password'), password);
    expect(screen.getByLabelText('Email')).toHaveValue(email);
    expect(screen.getByLabelText('Password')).toHaveValue(password);
    await user.keyboard('{Enter}');
  };

  it("is titled 'Welcome'; empty fields show the validation texts and the first invalid field gets focus", async () => {
    open();
    expect(screen.getByText('Welcome')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(LOGIN_TEXTS.emailRequired)).toBeInTheDocument();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
    expect(server.requests).toHaveLength(0);
  });

  it('an invalid e-mail is refused with the same text; the password field is focused when only it is missing', async () => {
    const user = userEvent.setup();
    open();
    await user.type(screen.getByLabelText('Email'), 'customer@decor.example');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
  });

  it("Enter submits; a 403 says 'Incorrect username or password'", async () => {
    signInReply = () => ({ status: 403, body: { message: 'Incorrect username or password' } });
    open();
    await signInWith('customer@decor.example', 'wrong');
    expect(await screen.findByText('Incorrect username or password')).toBeInTheDocument();
    expect(server.requests[0]?.body).toEqual({ email: 'customer@decor.example', password: 'wrong' });
  });

  it('any other failure says the generic login text', async () => {
    signInReply = () => ({ status: 500, body: { message: 'boom' } });
    open();
    await signInWith('customer@decor.example', 'demo1234');
    expect(await screen.findByText('An error occurred while attempting to log in.')).toBeInTheDocument();
  });

  it("success: 'Login Successful!', the session is stored, and the modal closes 500 ms later", async () => {
    // The close timer starts once the answer is in, so no sooner than this: a time read when the test
    // noticed the message came late on a loaded run (the wait polls), and the modal seemed early.
    let answeredAt = 0;
    signInReply = () => {
      answeredAt = Date.now();
      return {
        status: 200,
        body: { result: { token: 'jwt-1', permissions: 'customer', user: demoUser } },
        headers: { token: 'jwt-1' },
      };
    };
    const { onClose, store } = open();
    // What the close saw, when it came: a test that looked for the message first and then checked the
    // modal was not closed yet would fail whenever a loaded run noticed the message 500 ms late.
    let closedAt = 0;
    let successShownAtClose = false;
    onClose.mockImplementation(() => {
      closedAt = Date.now();
      successShownAtClose = screen.queryByText('Login Successful!') !== null;
    });
    await signInWith('customer@decor.example', 'demo1234');
    // The message is checked where the close saw it (above): on a loaded run a search for it could
    // begin after the modal had already closed (the full suite once did).
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(successShownAtClose).toBe(true);
    expect(sessionStorage.getItem('token')).toBe('jwt-1');
    expect(store.getState().session.user?.email).toBe(demoUser.email);
    // Less a little: Node starts a timer from the event loop's cached clock, a few ms behind Date.now().
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(CLOSE_AFTER_MS - 50);
  });

  it("staff with a redirect URL see 'Re-directing to Quickbooks...'", async () => {
    signInReply = () => ({
      status: 200,
      body: {
        result: {
          token: 'jwt-2',
          permissions: 'admin',
          redirecturl: 'http://127.0.0.1:1/qbo-sign-in',
          user: { ...demoUser, permissions: 'admin' },
        },
      },
    });
    const assign = jest.spyOn(externalSignIn, 'go').mockImplementation(() => {});
    try {
      open();
      await signInWith('staff@decor.example', 'demo1234');
      expect(await screen.findByText('Re-directing to Quickbooks...')).toBeInTheDocument();
      expect(assign).toHaveBeenCalledWith('http://127.0.0.1:1/qbo-sign-in');
    } finally {
      assign.mockRestore();
    }
  });

  it('forgotten password: sends the reset e-mail and always reports success', async () => {
    const user = userEvent.setup();
    open();
    await user.type(screen.getByLabelText('Email'), 'nobody@decor.example');
    await act(async () => {
      await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    });
    expect(await screen.findByText(LOGIN_TEXTS.resetSent)).toBeInTheDocument();
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', body: { email: 'nobody@decor.example' } });
  });
});
