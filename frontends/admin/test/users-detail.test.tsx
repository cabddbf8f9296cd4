/**
 * /admin/users/{id} and /admin/company/{id} (spec orders §2, §4, §6, §8): the fields, the customer's
 * orders, Suspend / Enable, delete after confirming, resend the welcome e-mail, a company's customers.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCompany, aUser, FakeBackend, LOAD, renderAdmin, staffUser } from './users-support';

// antd forms and tables in jsdom are slow on a busy 2-core machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const backend = new FakeBackend();
beforeAll(() => backend.start());
afterAll(() => backend.stop());
beforeEach(() => {
  backend.reset();
  backend.add({ companies: [aCompany()], users: [aUser()] });
});

/**
 * The confirmation modal. (In tests antd gives every generated id the value 'test-id', so the orders
 * list's tabs take the modal's aria-labelledby: find it by role, then its title.)
 */
async function deleteModal() {
  const modal = await screen.findByRole('dialog');
  expect(within(modal).getByText('Delete user')).toBeInTheDocument();
  return modal;
}

/** The text next to a term of the details list. */
function field(term: string): string {
  const dt = screen.getAllByRole('term').find((t) => t.textContent === term);
  return dt?.nextElementSibling?.textContent ?? '(none)';
}

describe("a customer's page", () => {
  it('shows parent company, display name, company, name, address, phone, e-mail and their orders', async () => {
    renderAdmin('/admin/users/u1');
    expect(await screen.findByRole('heading', { name: /Casey Morgan/ }, LOAD)).toBeInTheDocument();
    await waitFor(() => expect(field('Address')).toBe('12 Pine St, Austin, TX 78701'));
    expect(screen.getByRole('link', { name: 'Evergreen Weddings' })).toHaveAttribute(
      'href',
      '/admin/company/c1',
    );
    expect(field('Display name')).toBe('Casey Morgan');
    expect(field('Company')).toBe('Evergreen Weddings');
    expect(field('Name')).toBe('Casey Morgan');
    expect(field('Phone')).toBe('512-555-0199');
    expect(field('Email')).toBe('casey@evergreen.example');
    // The orders list of @decor/web-orders, filtered to this user.
    await waitFor(() => expect(backend.calls('GET', '/estimate')).toHaveLength(1));
    expect(backend.params('GET', '/estimate', 0).get('UserId')).toBe('u1');
    expect(screen.getByRole('searchbox', { name: 'Search by estimate ID' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to users/ })).toHaveAttribute('href', '/admin/users');
  });

  it('Suspend sets active false, then Enable sets it true again', async () => {
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend' }, LOAD));
    expect(await screen.findByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(screen.getByText('This user is suspended and cannot sign in.')).toBeInTheDocument();
    expect(backend.calls('PUT', '/user/u1')[0]?.body).toEqual({ active: false });
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeInTheDocument();
    expect(backend.calls('PUT', '/user/u1')[1]?.body).toEqual({ active: true });
  });

  it("a refused suspension says 'An error occurred while suspending the user' with the server's words", async () => {
    backend.overrides.set('PUT /user/u1', () => ({
      status: 403,
      body: { message: 'Only a superadmin can manage admins' },
    }));
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend' }, LOAD));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('An error occurred while suspending the user')).toBeInTheDocument();
    expect(within(alert).getByText('Only a superadmin can manage admins')).toBeInTheDocument();
  });

  it('deletes only after confirming in a modal, then goes back to the users', async () => {
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }, LOAD));
    let modal = await deleteModal();
    expect(within(modal).getByText('Delete Casey Morgan? This cannot be undone.')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.calls('DELETE', '/user/u1')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    modal = await deleteModal();
    await userEvent.click(within(modal).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/admin\/users$/));
    expect(backend.calls('DELETE', '/user/u1')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
  });

  it("a failed delete says 'An error occurred while deleting the user'", async () => {
    backend.overrides.set('DELETE /user/u1', () => ({ status: 500, body: { message: 'boom' } }));
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }, LOAD));
    const modal = await deleteModal();
    await userEvent.click(within(modal).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('An error occurred while deleting the user')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/admin/users/u1');
  });

  it('resends the welcome e-mail to the user', async () => {
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Resend welcome email' }, LOAD));
    expect(await screen.findByText('The welcome email has been sent')).toBeInTheDocument();
    expect(backend.calls('POST', '/send/welcomeEmail')[0]?.body).toEqual({
      email: 'casey@evergreen.example',
    });
  });

  it('Edit sends only the changed profile fields; the page shows them', async () => {
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, LOAD));
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('Edit user')).toBeInTheDocument();
    expect(within(modal).getByLabelText('Display name')).toHaveValue('Casey Morgan');
    expect(within(modal).queryByLabelText('Parent company')).not.toBeInTheDocument();
    await userEvent.clear(within(modal).getByLabelText('Phone'));
    await userEvent.click(within(modal).getByRole('button', { name: 'Submit' }));
    expect(await within(modal).findByText('This field is required')).toBeInTheDocument();
    await userEvent.type(within(modal).getByLabelText('Phone'), '512-555-0000');
    await userEvent.clear(within(modal).getByLabelText('Display name'));
    await userEvent.type(within(modal).getByLabelText('Display name'), 'Casey M.');
    await userEvent.click(within(modal).getByRole('button', { name: 'Submit' }));
    expect(await within(modal).findByText('The user has been updated')).toBeInTheDocument();
    expect(backend.calls('PUT', '/user/u1')[0]?.body).toEqual({
      displayName: 'Casey M.',
      phone: '512-555-0000',
    });
    await userEvent.click(within(modal).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { name: /Casey M\./ })).toBeInTheDocument();
  });

  it('an expired QuickBooks session during an edit shows its notice in the dialog', async () => {
    backend.overrides.set('PUT /user/u1', () => ({
      status: 401,
      headers: { 'qbo-session-expired': 'true' },
      body: { message: 'Your session with QuickBooks has expired, and the request was not completed!' },
    }));
    renderAdmin('/admin/users/u1');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, LOAD));
    const modal = await screen.findByRole('dialog');
    await userEvent.type(within(modal).getByLabelText('Last name'), '-Reyes');
    await userEvent.click(within(modal).getByRole('button', { name: 'Submit' }));
    const notice = await within(modal).findByRole('region', { name: 'QuickBooks session' });
    expect(within(notice).getByRole('button', { name: 'Click here' })).toBeInTheDocument();
    expect(within(modal).queryByText('The user has been updated')).not.toBeInTheDocument();
  });

  it("an unknown user says 'An error occurred while retrieving the user'", async () => {
    renderAdmin('/admin/users/nobody');
    expect(
      await screen.findByText('An error occurred while retrieving the user', {}, LOAD),
    ).toBeInTheDocument();
  });

  it('an admin cannot suspend or delete another admin, nor themself; a superadmin can manage admins', async () => {
    backend.add({
      users: [aUser({ id: 'a1', permissions: 'admin', displayName: 'Ann Admin', CompanyId: null })],
    });
    renderAdmin('/admin/users/a1');
    expect(await screen.findByRole('button', { name: 'Resend welcome email' }, LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('searchbox', { name: 'Search by estimate ID' })).not.toBeInTheDocument();
    document.body.innerHTML = '';

    renderAdmin('/admin/users/a1', 'superadmin');
    expect(await screen.findByRole('button', { name: 'Suspend' }, LOAD)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    document.body.innerHTML = '';

    backend.add({ users: [aUser({ id: staffUser.id, permissions: 'superadmin', displayName: 'Me' })] });
    renderAdmin(`/admin/users/${staffUser.id}`, 'superadmin');
    expect(await screen.findByRole('button', { name: 'Resend welcome email' }, LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
  });
});

describe("a company's page", () => {
  it('shows name, display name, address, phone and its customers, searchable', async () => {
    backend.add({
      users: [
        aUser({ id: 'u2', displayName: 'Dana Diaz', email: 'dana@evergreen.example' }),
        aUser({ id: 'u3', displayName: 'Other Co person', CompanyId: 'c9', email: 'o@x.example' }),
      ],
    });
    renderAdmin('/admin/company/c1');
    expect(await screen.findByRole('heading', { name: 'Evergreen Weddings' }, LOAD)).toBeInTheDocument();
    expect(field('Name')).toBe('Evergreen Weddings');
    expect(field('Display name')).toBe('Evergreen Weddings');
    expect(field('Address')).toBe('12 Pine St, Austin, TX 78701');
    expect(field('Phone')).toBe('512-555-0101');
    expect(await screen.findByRole('link', { name: 'Casey Morgan' })).toHaveAttribute(
      'href',
      '/admin/users/u1',
    );
    expect(screen.getByRole('link', { name: 'Dana Diaz' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Other Co person' })).not.toBeInTheDocument();
    expect(backend.params('GET', '/user', 0).get('CompanyId')).toBe('c1');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search customers by display name' }), 'dan');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Casey Morgan' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Dana Diaz' })).toBeInTheDocument();
    expect(backend.params('GET', '/user').get('like')).toBe('displayName:dan');
  });

  it('Edit changes the company; its display name follows its name', async () => {
    renderAdmin('/admin/company/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, LOAD));
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('Edit company')).toBeInTheDocument();
    await userEvent.clear(within(modal).getByLabelText('Company'));
    await userEvent.type(within(modal).getByLabelText('Company'), 'Evergreen Events');
    await userEvent.click(within(modal).getByRole('button', { name: 'Submit' }));
    expect(await within(modal).findByText('The company has been updated')).toBeInTheDocument();
    expect(backend.calls('PUT', '/company/c1')[0]?.body).toEqual({ name: 'Evergreen Events' });
    await userEvent.click(within(modal).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { name: 'Evergreen Events' })).toBeInTheDocument();
  });

  it("deletes a company after confirming; while it has customers the server's refusal is shown", async () => {
    renderAdmin('/admin/company/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }, LOAD));
    let modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('Delete company')).toBeInTheDocument();
    expect(within(modal).getByText('Delete Evergreen Weddings? This cannot be undone.')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('This company still has customers. Move or delete them first.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/admin/company/c1');

    backend.users = [];
    backend.routes();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    modal = await screen.findByRole('dialog');
    await userEvent.click(within(modal).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/admin\/users$/));
    expect(backend.calls('DELETE', '/company/c1')).toHaveLength(2);
    expect(backend.companies).toEqual([]);
  });

  it("says 'An error occurred while loading your customers' when they do not load", async () => {
    backend.overrides.set('GET /user', () => ({ status: 500, body: { message: 'boom' } }));
    renderAdmin('/admin/company/c1');
    expect(
      await screen.findByText('An error occurred while loading your customers', {}, LOAD),
    ).toBeInTheDocument();
  });

  it("an unknown company says 'An error occurred while retrieving the company'", async () => {
    renderAdmin('/admin/company/nothing');
    expect(
      await screen.findByText('An error occurred while retrieving the company', {}, LOAD),
    ).toBeInTheDocument();
  });
});
