import { api } from '../src/api';
import { readServerState, SERVER_STATE_ID, serialiseServerState } from '../src/server-state';
import { createAppStore } from '../src/store';

describe('the state a server-rendered page carries', () => {
  it('is JSON that cannot end its script element or open a comment', () => {
    const text = serialiseServerState({
      api: { name: '</script><script>alert(1)</script><!-- & \u2028' },
      sideNav: null,
    });
    expect(text).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(text)).toEqual({
      api: { name: '</script><script>alert(1)</script><!-- & \u2028' },
      sideNav: null,
    });
  });

  it('starts a store whose first render has the server’s answers and side navigation', async () => {
    const server = createAppStore();
    const products = [{ id: 'BAR-1', name: 'Mirrored Bar Front', Images: [] }];
    // As the server's store has it once the answer arrived.
    server.dispatch(
      api.util.upsertQueryData('getProducts', {}, products as never) as unknown as Parameters<
        typeof server.dispatch
      >[0],
    );
    await new Promise((r) => setTimeout(r, 0));
    const { api: apiState } = server.getState();
    const sideNav = { ...server.getState().sideNav, openedCategory: 'BARS' };
    document.body.innerHTML = `<script type="application/json" id="${SERVER_STATE_ID}">${serialiseServerState({ api: apiState, sideNav })}</script>`;

    const client = createAppStore(readServerState());
    expect(api.endpoints.getProducts.select({})(client.getState()).data).toEqual(products);
    expect(client.getState().sideNav.openedCategory).toBe('BARS');
    // The session is never the server's.
    expect(client.getState().session.user).toBeNull();
  });

  it('is absent from a page the browser renders itself', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(readServerState()).toBeNull();
  });
});
