/**
 * The import dialog (spec orders §2, §4, §5, §8): GET /qbo/users when opened; entries that cannot be
 * imported are not selectable and say why; Import disabled with nothing ticked; companies then
 * customers posted with their QuickBooks ids; failures listed as '{email}: {server message}'; search
 * by name, company and e-mail, those on the site hidden by default, 20 a page, Refresh.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QboCompany, QboCustomer } from '../src/features/users/api/types';
import { RELIST_AFTER_MS } from '../src/features/users/components/ImportUsersDialog';
import { aCompany, FakeBackend, LOAD, query, renderAdmin } from './users-support';

// antd forms and tables in jsdom are slow on a busy 2-core machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(300_000);

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
  street: null,
  city: null,
  state: null,
  zipCode: null,
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
    expect(Object.fromEntries(backend.params('GET', '/qbo/users'))).toEqual({
      hideOnSite: 'true',
      offset: '0',
      limit: '20',
    });
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
    // Already on the site: hidden by default; shown, not selectable, when the filter is off.
    expect(backend.params('GET', '/qbo/users').get('hideOnSite')).toBe('true');
    expect(d.queryByRole('checkbox', { name: /Sunset Gala Planners \(office/ })).not.toBeInTheDocument();
    const hide = d.getByRole('checkbox', { name: 'Hide those already on the site' });
    expect(hide).toBeChecked();
    await userEvent.click(hide);
    const onSite = await d.findByRole('checkbox', { name: /Sunset Gala Planners \(office/ });
    expect(onSite).toBeDisabled();
    expect(onSite).toHaveAccessibleDescription('Already on the site');
    expect(backend.params('GET', '/qbo/users').get('hideOnSite')).toBe('false');

    // Nothing ticked: Import is disabled.
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.click(ava);
    expect(d.getByRole('button', { name: 'Import' })).toBeEnabled();
    await userEvent.click(ava);
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();

    const asked = backend.calls('GET', '/qbo/users').length;
    await userEvent.click(d.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Import User' }));
    const again = within(await screen.findByRole('dialog', { name: 'Import Users from QuickBooks' }));
    await waitFor(() => expect(backend.calls('GET', '/qbo/users')).toHaveLength(asked + 1));
    // A new opening starts afresh: filter on, first page.
    expect(await again.findByRole('checkbox', { name: 'Hide those already on the site' })).toBeChecked();
    expect(backend.params('GET', '/qbo/users').get('offset')).toBe('0');
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
    // What accounting-sync lists once it has learnt the new records (a moment after the import).
    const learnt = {
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
    // The first listing after the import (the 2nd call) still shows the old state, and answers only
    // after the later relisting was due (a busy server): the later one must still be asked, and shows the new.
    backend.overrides.set('GET /qbo/users', async (request) => {
      const call = backend.calls('GET', '/qbo/users').length;
      if (call === 2) await new Promise((answer) => setTimeout(answer, RELIST_AFTER_MS + 500));
      return backend.qboUsersPage(request, call >= 3 ? learnt : undefined);
    });
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
    // The listing is asked again (what is on the site now), and nothing stays ticked; once more a
    // moment later: the company's customers (parent now on the site) become selectable without
    // reopening the dialog.
    await waitFor(() => expect(backend.calls('GET', '/qbo/users').length).toBeGreaterThanOrEqual(2));
    expect(d.getByRole('button', { name: 'Import' })).toBeDisabled();
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

  it('searches by name, company and e-mail; what is ticked stays ticked across searches', async () => {
    const d = await openImport();
    await d.findByRole('checkbox', { name: /Ava Thompson/ }, LOAD);
    /** Types a new search and waits until the dialog has asked for it. */
    const searchFor = async (typed: string) => {
      const box = d.getByRole('searchbox', { name: 'Search by name, company or e-mail' });
      await userEvent.clear(box);
      await userEvent.type(box, typed);
      await waitFor(() => expect(backend.params('GET', '/qbo/users').get('search')).toBe(typed));
    };
    await searchFor('marcus');
    await waitFor(() => expect(d.queryByRole('checkbox', { name: /Ava Thompson/ })).not.toBeInTheDocument());
    await userEvent.click(d.getByRole('checkbox', { name: /Marcus Lee/ }));
    expect(d.getByText('1 selected')).toBeInTheDocument();

    // By company: the company and its customers.
    await searchFor('blue harbor');
    await waitFor(() => expect(d.queryByRole('checkbox', { name: /Marcus Lee/ })).not.toBeInTheDocument());
    expect(d.getByRole('checkbox', { name: /Nia Park/ })).toBeDisabled();
    await userEvent.click(d.getByRole('checkbox', { name: /^Blue Harbor Weddings/ }));
    expect(d.getByText('2 selected')).toBeInTheDocument();

    // By e-mail; and nothing found says so.
    await searchFor('ava@');
    await waitFor(() => expect(d.queryByRole('checkbox', { name: /Nia Park/ })).not.toBeInTheDocument());
    expect(d.getByRole('checkbox', { name: /Ava Thompson/ })).toBeEnabled();
    await searchFor('ava@zz');
    expect(await d.findByText('Nothing was found')).toBeInTheDocument();

    // Both ticked entries are imported, the company first.
    await userEvent.click(d.getByRole('button', { name: 'Import' }));
    expect(await d.findByText('Users have been added!')).toBeInTheDocument();
    expect(backend.calls('POST', '/company').map((c) => (c.body as { qboId: string }).qboId)).toEqual(['2']);
    expect(backend.calls('POST', '/user').map((c) => (c.body as { qboId: string }).qboId)).toEqual(['8']);
  });

  it('pages 20 at a time, companies then customers; a new search starts at the first page', async () => {
    backend.qboUsers = {
      companies: Array.from({ length: 30 }, (_, i) =>
        qboCompany({ qboId: `${100 + i}`, displayName: `Company ${String(i + 1).padStart(2, '0')}` }),
      ),
      customers: Array.from({ length: 15 }, (_, i) =>
        qboCustomer({ qboId: `${200 + i}`, displayName: `Customer ${String(i + 1).padStart(2, '0')}` }),
      ),
    };
    const d = await openImport();
    expect(await d.findByText('1–20 of 45', {}, LOAD)).toBeInTheDocument();
    const shown = () => d.getAllByRole('checkbox', { name: /^(Company|Customer) \d\d/ }).length;
    expect(shown()).toBe(20);
    expect(d.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(d.getByRole('checkbox', { name: /^Company 01/ }));

    await userEvent.click(d.getByRole('button', { name: 'Next' }));
    expect(await d.findByText('21–40 of 45')).toBeInTheDocument();
    await waitFor(() => expect(backend.params('GET', '/qbo/users').get('offset')).toBe('20'));
    await waitFor(() => expect(d.getByRole('list', { name: 'Customers' })).toBeInTheDocument());
    expect(within(d.getByRole('list', { name: 'Companies' })).getAllByRole('checkbox')).toHaveLength(10);
    expect(within(d.getByRole('list', { name: 'Customers' })).getAllByRole('checkbox')).toHaveLength(10);
    await userEvent.click(d.getByRole('checkbox', { name: /^Customer 01/ }));

    await userEvent.click(d.getByRole('button', { name: 'Next' }));
    expect(await d.findByText('41–45 of 45')).toBeInTheDocument();
    expect(d.getByRole('button', { name: 'Next' })).toBeDisabled();
    await waitFor(() => expect(d.queryByRole('list', { name: 'Companies' })).not.toBeInTheDocument());
    await userEvent.click(d.getByRole('button', { name: 'Previous' }));
    expect(await d.findByText('21–40 of 45')).toBeInTheDocument();
    // Ticks made on other pages are kept.
    expect(await d.findByRole('checkbox', { name: /^Customer 01/ })).toBeChecked();
    expect(d.getByText('2 selected')).toBeInTheDocument();

    await userEvent.type(d.getByRole('searchbox', { name: 'Search by name, company or e-mail' }), 'customer');
    await waitFor(() => expect(backend.params('GET', '/qbo/users').get('search')).toBe('customer'));
    expect(backend.params('GET', '/qbo/users').get('offset')).toBe('0');
    // 15 found: one page, no pager.
    await waitFor(() => expect(d.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument());
    expect(shown()).toBe(15);
  });

  it('Refresh has the server read QuickBooks again, then shows the page anew', async () => {
    const d = await openImport();
    expect(await d.findByText(/^Listed from QuickBooks at \d\d:\d\d [AP]M$/, {}, LOAD)).toBeInTheDocument();
    const before = backend.calls('GET', '/qbo/users').length;
    backend.qboUsers.customers.push(qboCustomer({ qboId: '11', displayName: 'Zoe New' }));
    await userEvent.click(d.getByRole('button', { name: 'Refresh' }));
    const asked = () => backend.calls('GET', '/qbo/users').slice(before);
    // The refresh, then the page asked again once it is done.
    await waitFor(() => expect(asked()).toHaveLength(2), { timeout: 60_000 });
    expect(await d.findByRole('checkbox', { name: /Zoe New/ }, { timeout: 60_000 })).toBeEnabled();
    const calls = asked().map((c) => query(c).get('refresh'));
    expect(calls).toEqual(['true', null]);
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
