/**
 * /admin/users (spec orders §2 Admin users, §4, §5, §8, §9): the tabs by role, search, 20 at a time
 * with more on scroll, the list states, and the create-user dialog with every form rule.
 */
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCompany, aUser, FakeBackend, LOAD, query, renderAdmin } from './users-support';

// antd forms and tables in jsdom are slow on a busy 2-core machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const backend = new FakeBackend();
beforeAll(() => backend.start());
afterAll(() => backend.stop());
beforeEach(() => backend.reset());

const rows = (table: string) =>
  within(screen.getByRole('table', { name: table }))
    .getAllByRole('row')
    .slice(1);

describe('the users screen', () => {
  it('shows an admin the Customers and Companies tabs, a superadmin also Admins', async () => {
    renderAdmin('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Users' }, LOAD)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Customers' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Companies' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Admins' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Create User/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import User' })).toBeInTheDocument();
  });

  it("a superadmin's Admins tab lists admins and superadmins, searched by e-mail", async () => {
    backend.add({
      users: [
        aUser({ id: 'a1', email: 'ann@decor.example', displayName: 'Ann Admin', permissions: 'admin' }),
        aUser({
          id: 'a2',
          email: 'owner@decor.example',
          displayName: 'Olga Owner',
          permissions: 'superadmin',
        }),
        aUser({ id: 'u1' }),
      ],
    });
    renderAdmin('/admin/users', 'superadmin');
    await userEvent.click(await screen.findByRole('tab', { name: 'Admins' }, LOAD));
    expect(await screen.findByRole('link', { name: 'Ann Admin' })).toHaveAttribute('href', '/admin/users/a1');
    expect(screen.getByRole('link', { name: 'Olga Owner' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Casey Morgan' })).not.toBeInTheDocument();
    expect(backend.params('GET', '/user').getAll('permissions')).toEqual(['admin', 'superadmin']);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search admins by email' }), 'own');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann Admin' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Olga Owner' })).toBeInTheDocument();
    expect(backend.params('GET', '/user').get('like')).toBe('email:own');
  });

  it('lists customers 20 at a time in company order, loads more, and searches by company prefix', async () => {
    backend.add({
      users: Array.from({ length: 25 }, (_, i) =>
        aUser({
          id: `u${i}`,
          email: `c${i}@x.example`,
          displayName: `Customer ${i}`,
          ownCompany: i < 3 ? `Birch Events ${i}` : `Acme ${i}`,
          active: i !== 1,
        }),
      ),
    });
    renderAdmin('/admin/users');
    expect(await screen.findByRole('link', { name: 'Customer 0' }, LOAD)).toHaveAttribute(
      'href',
      '/admin/users/u0',
    );
    expect(rows('Customers')).toHaveLength(20);
    // (A request of the previous test still on its way may arrive first: look for this list's.)
    const first = backend
      .calls('GET', '/user')
      .map(query)
      .find((q) => q.get('permissions') === 'customer');
    expect(Object.fromEntries(first ?? [])).toEqual({
      limit: '20',
      offset: '0',
      order: 'ownCompany:ASC',
      permissions: 'customer',
    });
    const suspended = screen.getByRole('link', { name: 'Customer 1' }).closest('tr') as HTMLElement;
    expect(within(suspended).getByText('Suspended')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows('Customers')).toHaveLength(25));
    expect(backend.params('GET', '/user').get('offset')).toBe('20');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search customers by company' }), 'birch');
    await waitFor(() => expect(rows('Customers')).toHaveLength(3));
    expect(backend.params('GET', '/user').get('like')).toBe('ownCompany:birch');

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search customers by company' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search customers by company' }), 'zz');
    expect(await screen.findByText('Nothing was found')).toBeInTheDocument();
  });

  it('shows the loading state, then the error text when the users do not load', async () => {
    let release: () => void = () => {};
    backend.overrides.set(
      'GET /user',
      () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 500, body: { message: 'boom' } });
        }),
    );
    renderAdmin('/admin/users');
    expect(await screen.findByLabelText('Loading', {}, LOAD)).toBeInTheDocument();
    await waitFor(() => expect(backend.calls('GET', '/user')).toHaveLength(1));
    release();
    expect(await screen.findByText('An error occurred while retrieving the users')).toBeInTheDocument();
    expect(screen.queryByText('Nothing was found')).not.toBeInTheDocument();
  });

  it('the Companies tab lists companies by display name, searched by name prefix; its error text', async () => {
    backend.add({
      companies: [
        aCompany({ id: 'c1', name: 'Evergreen Weddings', displayName: 'Evergreen Weddings' }),
        aCompany({ id: 'c2', name: 'Blue Harbor', displayName: 'Blue Harbor', street: null, phone: null }),
      ],
    });
    renderAdmin('/admin/users');
    await userEvent.click(await screen.findByRole('tab', { name: 'Companies' }, LOAD));
    const link = await screen.findByRole('link', { name: 'Evergreen Weddings' });
    expect(link).toHaveAttribute('href', '/admin/company/c1');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('12 Pine St, Austin, TX 78701')).toBeInTheDocument();
    expect(within(row).getByText('512-555-0101')).toBeInTheDocument();
    const first = backend.params('GET', '/company', 0);
    expect(first.get('order')).toBe('displayName:ASC');
    expect(first.get('limit')).toBe('20');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search companies by name' }), 'blu');
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Evergreen Weddings' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: 'Blue Harbor' })).toBeInTheDocument();
    expect(backend.params('GET', '/company').get('like')).toBe('name:blu');

    backend.overrides.set('GET /company', () => ({ status: 500, body: { message: 'boom' } }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search companies by name' }), 'e');
    expect(await screen.findByText('An error occurred while retrieving the companies')).toBeInTheDocument();
  });

  it('shows staff-typed names as text, never as markup', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    backend.add({ users: [aUser({ id: 'u9', displayName: hostile, ownCompany: hostile })] });
    renderAdmin('/admin/users');
    expect(await screen.findByRole('link', { name: hostile }, LOAD)).toBeInTheDocument();
    expect(document.querySelector('table img, table script')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });
});

describe('the create-user dialog', () => {
  const dialog = () => screen.getByRole('dialog', { name: 'Create User' });
  async function openDialog(permissions = 'admin') {
    renderAdmin('/admin/users', permissions);
    await userEvent.click(await screen.findByRole('button', { name: /Create User/ }, LOAD));
    return within(await screen.findByRole('dialog', { name: 'Create User' }));
  }

  it('offers Company and Customer to an admin, and Admin too to a superadmin', async () => {
    let d = await openDialog();
    expect(d.getByRole('button', { name: 'Company' })).toBeInTheDocument();
    expect(d.getByRole('button', { name: 'Customer' })).toBeInTheDocument();
    expect(d.queryByRole('button', { name: 'Admin' })).not.toBeInTheDocument();
    document.body.innerHTML = '';
    d = await openDialog('superadmin');
    expect(d.getByRole('button', { name: 'Admin' })).toBeInTheDocument();
  });

  it('company: every required field says so, the first is focused; then it is created and listed', async () => {
    const d = await openDialog();
    await userEvent.click(d.getByRole('button', { name: 'Company' }));
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(d.getAllByText('This field is required')).toHaveLength(5));
    await waitFor(() => expect(d.getByLabelText('Company')).toHaveFocus());
    expect(backend.calls('POST', '/company')).toHaveLength(0);

    await userEvent.type(d.getByLabelText('Company'), '  Maple Hall ');
    await userEvent.type(d.getByLabelText('Street'), '1 Main St');
    await userEvent.type(d.getByLabelText('City'), 'Austin');
    await userEvent.type(d.getByLabelText('State'), 'TX');
    // Enter submits.
    await userEvent.type(d.getByLabelText('Zip code'), '78702{Enter}');
    expect(await d.findByText('A new user has been added!')).toBeInTheDocument();
    expect(backend.calls('POST', '/company')[0]?.body).toEqual({
      name: 'Maple Hall',
      displayName: 'Maple Hall',
      street: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78702',
    });
    await userEvent.click(d.getByRole('button', { name: 'Done' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Companies' }));
    expect(await screen.findByRole('link', { name: 'Maple Hall' })).toBeInTheDocument();
  });

  it("customer: 'Please select a parent company', a valid e-mail, every other field required; picks the parent by search", async () => {
    backend.add({
      companies: [
        aCompany({ id: 'c1' }),
        aCompany({ id: 'c2', name: 'Blue Harbor', displayName: 'Blue Harbor' }),
      ],
    });
    const d = await openDialog();
    await userEvent.click(d.getByRole('button', { name: 'Customer' }));
    await userEvent.type(d.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    expect(await d.findByText('Please select a parent company')).toBeInTheDocument();
    expect(d.getByText('Please provide a valid email address')).toBeInTheDocument();
    expect(d.getAllByText('This field is required')).toHaveLength(5); // company, display name, first, last, phone
    await waitFor(() => expect(d.getByLabelText('Parent company')).toHaveFocus());

    const picker = d.getByRole('combobox', { name: 'Parent company' });
    await userEvent.type(picker, 'blu');
    await waitFor(() => expect(backend.params('GET', '/company').get('like')).toBe('name:blu'));
    await userEvent.click(await screen.findByTitle('Blue Harbor'));
    await waitFor(() => expect(d.queryByText('Please select a parent company')).not.toBeInTheDocument());
    // The company name follows the parent's when it was empty.
    expect(d.getByLabelText('Company')).toHaveValue('Blue Harbor');

    await userEvent.type(d.getByLabelText('Display name'), 'Nora Quinn');
    await userEvent.clear(d.getByLabelText('Email'));
    await userEvent.type(d.getByLabelText('Email'), 'nora@blueharbor.example');
    await userEvent.type(d.getByLabelText('First name'), 'Nora');
    await userEvent.type(d.getByLabelText('Last name'), 'Quinn');
    await userEvent.type(d.getByLabelText('Phone'), '512-555-0142');
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    expect(await d.findByText('A new user has been added!')).toBeInTheDocument();
    expect(backend.calls('POST', '/user')[0]?.body).toEqual({
      permissions: 'customer',
      CompanyId: 'c2',
      ownCompany: 'Blue Harbor',
      displayName: 'Nora Quinn',
      email: 'nora@blueharbor.example',
      firstName: 'Nora',
      lastName: 'Quinn',
      phone: '512-555-0142',
    });
  });

  it("admin (superadmin): e-mail, first and last name required, phone optional; the server's refusal is shown", async () => {
    backend.add({ users: [aUser({ id: 'a1', email: 'taken@decor.example', permissions: 'admin' })] });
    const d = await openDialog('superadmin');
    await userEvent.click(d.getByRole('button', { name: 'Admin' }));
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    expect(await d.findByText('Please provide a valid email address')).toBeInTheDocument();
    expect(d.getAllByText('This field is required')).toHaveLength(2);
    await userEvent.type(d.getByLabelText('Email'), 'taken@decor.example');
    await userEvent.type(d.getByLabelText('First name'), 'Tia');
    await userEvent.type(d.getByLabelText('Last name'), 'Admin');
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    expect(await d.findByText('A user with this email already exists')).toBeInTheDocument();
    expect(backend.calls('POST', '/user')[0]?.body).toEqual({
      permissions: 'admin',
      email: 'taken@decor.example',
      firstName: 'Tia',
      lastName: 'Admin',
    });
    // Back to the choice and on to another form.
    await userEvent.click(d.getByRole('button', { name: 'Back' }));
    expect(d.getByRole('button', { name: 'Company' })).toBeInTheDocument();
  });

  it('an expired QuickBooks session shows its notice in the dialog, not an error', async () => {
    backend.overrides.set('POST /company', () => ({
      status: 401,
      headers: { 'qbo-session-expired': 'true' },
      body: { message: 'Your session with QuickBooks has expired, and the request was not completed!' },
    }));
    const d = await openDialog();
    await userEvent.click(d.getByRole('button', { name: 'Company' }));
    for (const [label, value] of [
      ['Company', 'Oak Hall'],
      ['Street', '2 Main St'],
      ['City', 'Austin'],
      ['State', 'TX'],
      ['Zip code', '78703'],
    ]) {
      fireEvent.change(d.getByLabelText(label as string), { target: { value } });
    }
    await userEvent.click(d.getByRole('button', { name: 'Submit' }));
    const notice = await within(dialog()).findByRole('region', { name: 'QuickBooks session' });
    expect(
      within(notice).getByText(
        'Your session with QuickBooks has expired, and the request was not completed!',
      ),
    ).toBeInTheDocument();
    expect(within(notice).getByRole('button', { name: 'Click here' })).toBeInTheDocument();
    // The notice is the only alert: no error of its own.
    expect(d.getAllByRole('alert').filter((a) => !notice.contains(a))).toEqual([]);
    expect(d.queryByText('A new user has been added!')).not.toBeInTheDocument();
  });
});
