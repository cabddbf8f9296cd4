/**
 * The import dialog (spec orders §2, §4, §5, §8): GET /qbo/users when opened; entries that cannot be
 * imported are not selectable and say why; Import disabled with nothing ticked; companies then
 * customers posted with their QuickBooks ids; failures listed as '{email}: {server message}'.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QboCompany, QboCustomer } from '../src/features/users/api/types';
import { aCompany, FakeBackend, LOAD, renderAdmin } from './users-support';

// antd forms and tables in jsdom are slow on a busy 2-core machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const backend = new FakeBackend();
beforeAll(() => backend.start());
afterAll(() => backend.stop());
beforeEach(() => backend.reset());

const qboCompany = (over: Partial<QboCompany> = {}): QboCompany => ({
  qboId: '1',
  displayName: 'Sunset Gala Planners',
  name: 'Sunset Gala Planners',
  email: 'office@sunsetgala.example',
  phone: '(512) 555-0187',
  street: '410 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zipCode: '78701',
  onSite: false,
  siteId: null,
  selectable: true,
  reason: null,
  ...over,
});

const qboCustomer = (over: Partial<QboCustomer> = {}): QboCustomer => ({
  qboId: '7',
  displayName: 'Ava Thompson',
  firstName: 'Ava',
  lastName: 'Thompson',
  email: 'ava@sunsetgala.example',
  phone: null,
  company: 'Sunset Gala Planners',
  parentQboId: '1',
  parentName: 'Sunset Gala Planners',
  parentOnSite: true,
  parentSiteId: 'c1',
  onSite: false,
  siteId: null,
  selectable: true,
  reason: null,
  ...over,
});

const NO_EMAIL = 'This user has no e-mail address. Please update the user in QuickBooks.';

async function openImport() {
  renderAdmin('/admin/users');
  await userEvent.click(await screen.findByRole('button', { name: 'Import User' }, LOAD));
  return within(await screen.findByRole('dialog', { name: 'Import Users from QuickBooks' }));
}

describe('the import dialog', () => {
  beforeEach(() => {
    backend.add({ companies: [aCompany({ id: 'c1', name: 'Sunset Gala Planners', qboId: '1' })] });
    backend.qboUsers = {
      companies: [
        qboCompany({
          qboId: '2',
          displayName: 'Blue Harbor Weddings',
          name: 'Blue Harbor Weddings',
          email: null,
        }),
        qboCompany({
          qboId: '5',
          displayName: 'Ralph Nguyen',
          name: null,
          selectable: false,
          reason: 'This company has no company name. Please update it in QuickBooks.',
        }),
        qboCompany({
          qboId: '1',
          onSite: true,
          siteId: 'c1',
          selectable: false,
          reason: 'Already on the site',
        }),
      ],
      customers: [
        qboCustomer(),
        qboCustomer({
          qboId: '8',
          displayName: 'Marcus Lee',
          email: 'marcus@sunsetgala.example',
          firstName: 'Marcus',
          lastName: 'Lee',
        }),
        qboCustomer({
          qboId: '9',
          displayName: 'Lena Brooks',
          email: null,
          parentQboId: '2',
          parentName: 'Blue Harbor Weddings',
          parentOnSite: false,
          parentSiteId: null,
          selectable: false,
          reason: NO_EMAIL,
        }),
        qboCustomer({
          qboId: '10',
          displayName: 'Nia Park',
          email: 'nia@blueharbor.example',
          parentQboId: '2',
          parentName: 'Blue Harbor Weddings',
          parentOnSite: false,
          parentSiteId: null,
          selectable: false,
          reason: 'Please import the parent company first',
        }),
      ],
    };
  });

  it('loads the QuickBooks users each time it opens; the §5 rules decide what can be ticked', async () => {
    const d = await openImport();
    const ava = await d.findByRole('checkbox', { name: /Ava Thompson/ }, LOAD);
    expect(backend.calls('GET', '/qbo/users')).toHaveLength(1);
    expect(ava).toBeEnabled();
    expect(d.getByRole('checkbox', { name: /^Blue Harbor Weddings/ })).toBeEnabled();

    const noName = d.getByRole('checkbox', { name: /Ralph Nguyen/ });
    expect(noName).toBeDisabled();
    expect(noName).toHaveAccessibleDescription(
      'This company has no company name. Please update it in QuickBooks.',
    );
    const noEmail = d.getByRole('checkbox', { name: /Lena Brooks/ });
    expect(noEmail).toBeDisabled();
    expect(noEmail).toHaveAccessibleDescription(NO_EMAIL);
    const noParent = d.getByRole('checkbox', { name: /Nia Park/ });
    expect(noParent).toBeDisabled();
    expect(noParent).toHaveAccessibleDescription('Please import the parent company first');
    expect(d.getByRole('checkbox', { name: /Sunset Gala Planners \(office/ })).toBeDisabled();

    // Nothing ticked: Import is disabled.
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.click(ava);
    expect(d.getByRole('button', { name: 'Import' })).toBeEnabled();
    await userEvent.click(ava);
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();

    await userEvent.click(d.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Import User' }));
    await screen.findByRole('dialog', { name: 'Import Users from QuickBooks' });
    await waitFor(() => expect(backend.calls('GET', '/qbo/users')).toHaveLength(2));
  });

  it('applies the rules itself when the server leaves them to it', async () => {
    backend.qboUsers = {
      companies: [qboCompany({ qboId: '5', displayName: 'Ralph Nguyen', name: null })],
      customers: [
        qboCustomer({ qboId: '9', displayName: 'Lena Brooks', email: null }),
        qboCustomer({ qboId: '10', displayName: 'Nia Park', parentSiteId: null, parentOnSite: false }),
      ],
    };
    const d = await openImport();
    expect(await d.findByRole('checkbox', { name: /Ralph Nguyen/ }, LOAD)).toBeDisabled();
    expect(d.getByRole('checkbox', { name: /Lena Brooks/ })).toHaveAccessibleDescription(NO_EMAIL);
    expect(d.getByRole('checkbox', { name: /Nia Park/ })).toHaveAccessibleDescription(
      'Please import the parent company first',
    );
  });

  it("imports companies first, then customers, with their QuickBooks ids: 'Users have been added!'", async () => {
    const d = await openImport();
    await userEvent.click(await d.findByRole('checkbox', { name: /Marcus Lee/ }, LOAD));
    await userEvent.click(d.getByRole('checkbox', { name: /^Blue Harbor Weddings/ }));
    await userEvent.click(d.getByRole('button', { name: 'Import' }));
    expect(await d.findByText('Users have been added!')).toBeInTheDocument();
    const posts = backend.server.requests.filter((r) => r.method === 'POST').map((r) => r.url);
    expect(posts).toEqual(['/api/company', '/api/user']);
    expect(backend.calls('POST', '/company')[0]?.body).toEqual({
      name: 'Blue Harbor Weddings',
      displayName: 'Blue Harbor Weddings',
      street: '410 Congress Ave',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      phone: '(512) 555-0187',
      qboId: '2',
    });
    expect(backend.calls('POST', '/user')[0]?.body).toEqual({
      permissions: 'customer',
      CompanyId: 'c1',
      ownCompany: 'Sunset Gala Planners',
      displayName: 'Marcus Lee',
      email: 'marcus@sunsetgala.example',
      firstName: 'Marcus',
      lastName: 'Lee',
      qboId: '8',
      sendWelcomeEmail: false,
    });
    // The listing is asked again (what is on the site now), and nothing stays ticked.
    await waitFor(() => expect(backend.calls('GET', '/qbo/users')).toHaveLength(2));
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();
    // …and once more a moment later, when QuickBooks' side has learnt the new records: the company's
    // customers (parent now on the site) become selectable without reopening the dialog.
    backend.qboUsers = {
      companies: backend.qboUsers.companies.map((c) =>
        c.qboId === '2'
          ? { ...c, onSite: true, siteId: 'c100', selectable: false, reason: 'Already on the site' }
          : c,
      ),
      customers: backend.qboUsers.customers.map((c) =>
        c.qboId === '10'
          ? { ...c, parentOnSite: true, parentSiteId: 'c100', selectable: true, reason: null }
          : c,
      ),
    };
    await waitFor(() => expect(d.getByRole('checkbox', { name: /^Nia Park/ })).toBeEnabled());
    expect(backend.calls('GET', '/qbo/users')).toHaveLength(3);
  });

  it('sends the welcome e-mail only when asked', async () => {
    const d = await openImport();
    await userEvent.click(await d.findByRole('checkbox', { name: /Ava Thompson/ }, LOAD));
    await userEvent.click(
      d.getByRole('checkbox', { name: 'Send the welcome email to the imported customers' }),
    );
    await userEvent.click(d.getByRole('button', { name: 'Import' }));
    expect(await d.findByText('Users have been added!')).toBeInTheDocument();
    expect(backend.calls('POST', '/user')[0]?.body).toMatchObject({ qboId: '7', sendWelcomeEmail: true });
  });

  it("lists each failure as '{email}: {server message}' and does not say they were added", async () => {
    backend.overrides.set('POST /user', (request) => {
      const body = request.body as { email: string };
      return body.email === 'ava@sunsetgala.example'
        ? { status: 500, body: { message: 'QuickBooks did not answer' } }
        : { status: 201, body: { result: { ...body, id: 'u-new' } } };
    });
    const d = await openImport();
    await userEvent.click(await d.findByRole('checkbox', { name: /Ava Thompson/ }, LOAD));
    await userEvent.click(d.getByRole('checkbox', { name: /Marcus Lee/ }));
    await userEvent.click(d.getByRole('button', { name: 'Import' }));
    const failures = await d.findByRole('alert');
    expect(
      within(failures)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['ava@sunsetgala.example: QuickBooks did not answer']);
    expect(d.queryByText('Users have been added!')).not.toBeInTheDocument();
    expect(backend.calls('POST', '/user')).toHaveLength(2);
  });

  it('an expired QuickBooks session shows its notice with Click here in the dialog', async () => {
    backend.overrides.set('GET /qbo/users', () => ({
      status: 401,
      headers: { 'qbo-session-expired': 'true' },
      body: { message: 'Your session with QuickBooks has expired, and the request was not completed!' },
    }));
    const d = await openImport();
    const notice = await d.findByRole('region', { name: 'QuickBooks session' }, LOAD);
    expect(
      within(notice).getByText(
        'Your session with QuickBooks has expired, and the request was not completed!',
      ),
    ).toBeInTheDocument();
    expect(within(notice).getByRole('button', { name: 'Click here' })).toBeInTheDocument();
    expect(await d.findByRole('button', { name: 'Import' })).toBeDisabled();
    expect(d.queryByRole('checkbox', { name: /Ava/ })).not.toBeInTheDocument();
  });

  it("another failure to load says the server's words", async () => {
    backend.overrides.set('GET /qbo/users', () => ({
      status: 503,
      body: { message: 'QuickBooks is not connected' },
    }));
    const d = await openImport();
    expect(await d.findByText('QuickBooks is not connected', {}, LOAD)).toBeInTheDocument();
  });
});
