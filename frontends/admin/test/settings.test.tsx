import type { AcceptanceSettings } from '@decor/contracts/rules';
import { createAppStore, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes } from '@decor/web-core/router';
import { type ApiServer, demoUser, startApiServer } from '@decor/web-core/testing';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import BackOffice from '../src/BackOffice';

describe('/admin/settings/acceptance (issue 30)', () => {
  let server: ApiServer;
  let settings: AcceptanceSettings;

  beforeAll(async () => {
    server = await startApiServer({
      'GET /settings/acceptance': () => ({ body: { result: settings } }),
      'PUT /settings/acceptance': (r) => {
        const change = r.body as Omit<AcceptanceSettings, 'agreementVersion'>;
        const newText = change.agreementText !== settings.agreementText;
        settings = { ...change, agreementVersion: settings.agreementVersion + (newText ? 1 : 0) };
        return { body: { result: settings } };
      },
    });
    http.defaults.baseURL = server.apiUrl;
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    settings = {
      depositPercent: 25,
      validityDays: 14,
      agreementText: 'Strikes after 11:00pm are charged extra labor.',
      agreementVersion: 1,
    };
  });

  const renderAs = (permissions: string) => {
    const store = createAppStore();
    store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/admin/settings/acceptance']}>
          <Routes>
            <Route path="/admin/*" element={<BackOffice />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
  };

  it('the superadmin changes the deposit to a fixed amount and the agreement (a new version)', async () => {
    renderAs('superadmin');
    expect(await screen.findByRole('heading', { name: 'Acceptance settings' })).toBeInTheDocument();
    expect(screen.getByTestId('agreement-version')).toHaveTextContent('Current agreement: version 1.');
    // The deposit's own field follows its kind, a render after the loaded settings (a full run's jsdom
    // under load showed the version before it).
    expect(await screen.findByLabelText('Deposit percentage')).toHaveValue('25.00');
    expect(screen.getByLabelText('Days an estimate can be accepted after it is sent')).toHaveValue('14');

    await userEvent.click(screen.getByLabelText('Deposit'));
    await userEvent.click(await screen.findByTitle('A fixed amount'));
    const amount = await screen.findByLabelText('Deposit amount (dollars)');
    await userEvent.type(amount, '150');
    fireEvent.change(screen.getByLabelText('Rental agreement'), {
      target: { value: 'Version two of the terms.' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The acceptance settings have been saved.')).toBeInTheDocument();
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      depositAmount: 150,
      validityDays: 14,
      agreementText: 'Version two of the terms.',
    });
    await waitFor(() =>
      expect(screen.getByTestId('agreement-version')).toHaveTextContent('Current agreement: version 2.'),
    );
  });

  it('staff read the settings and cannot save them', async () => {
    renderAs('admin');
    expect(await screen.findByText('Only the superadmin can change these settings.')).toBeInTheDocument();
    expect(screen.getByLabelText('Rental agreement')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it("the server's refusal is shown", async () => {
    server.routes.set('PUT /settings/acceptance', () => ({ status: 403, body: { message: 'Forbidden' } }));
    renderAs('superadmin');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('There was an error while saving the settings')).toBeInTheDocument();
    expect(screen.getByText('Forbidden')).toBeInTheDocument();
  });
});
