import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadedScreen, loadScreen } from '../src/remotes';
import { AREA_ERROR_TITLE, RemoteScreen } from '../src/shared/RemoteScreen';
import { renderAt } from './support';

jest.mock('../src/remotes', () => ({ loadScreen: jest.fn(), loadedScreen: jest.fn() }));
const load = loadScreen as jest.MockedFunction<typeof loadScreen>;
const loaded = loadedScreen as jest.MockedFunction<typeof loadedScreen>;

describe('a remote screen (module federation at run time)', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows the exposed component once the remote has loaded', async () => {
    load.mockResolvedValueOnce({ default: () => <p>inventory from the remote</p> });
    renderAt('/inventory', <RemoteScreen remote="storefront" module="Inventory" />);
    expect(await screen.findByText('inventory from the remote')).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('storefront', 'Inventory');
  });

  it('a remote that cannot load: a friendly message in that area only, and a retry', async () => {
    load.mockRejectedValueOnce(new Error('ScriptExternalLoadError: admin is offline'));
    renderAt(
      '/admin',
      <>
        <nav>top bar still here</nav>
        <RemoteScreen remote="admin" module="BackOffice" />
      </>,
    );
    expect(await screen.findByText(AREA_ERROR_TITLE)).toBeInTheDocument();
    expect(screen.getByText('top bar still here')).toBeInTheDocument();
    load.mockResolvedValueOnce({ default: () => <p>back office</p> });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('back office')).toBeInTheDocument();
  });

  it('a screen loaded ahead (hydrating a server-rendered page) shows at once, without the loader', () => {
    load.mockClear();
    loaded.mockReturnValueOnce(() => <p>inventory loaded ahead</p>);
    renderAt('/inventory', <RemoteScreen remote="storefront" module="Inventory" />);
    // Synchronously: no Suspense fallback in between, so hydration keeps the server's HTML.
    expect(screen.getByText('inventory loaded ahead')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });
});
