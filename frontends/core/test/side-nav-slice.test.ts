import { http } from '../src/http';
import {
  CATEGORIES_ERROR,
  categoryMap,
  categoryTree,
  fetchCategories,
  initialSideNavState,
  setActiveSubCategory,
  setDoNotShowSideNav,
  setOpenedCategory,
  sideNavReducer,
  toggleSideNav,
} from '../src/side-nav-slice';
import { createAppStore } from '../src/store';
import { type ApiServer, startApiServer } from './support/api-server';

const answer = {
  categories: [
    { Id: '1', Name: 'BARS' },
    { Id: '2', Name: 'LIGHTING' },
  ],
  subcategories: [
    { Id: '11', Name: 'Bar Front', ParentRef: { value: '1' } },
    { Id: '21', Name: 'Uplights', ParentRef: { value: '2' } },
    { Id: '12', Name: 'Back Bar', ParentRef: { value: '1' } },
  ],
};

describe('side navigation slice (spec §3-4)', () => {
  it('starts closed and empty', () => {
    expect(initialSideNavState()).toEqual({
      openedCategory: null,
      activeSubCategory: null,
      categories: [],
      loading: false,
      error: false,
      errorDetail: null,
      doNotShowSideNav: false,
      visible: false,
    });
  });

  it('toggles visibility, sets the hide flag, the opened category and the active subcategory', () => {
    let state = sideNavReducer(initialSideNavState(), toggleSideNav());
    expect(state.visible).toBe(true);
    state = sideNavReducer(state, toggleSideNav());
    expect(state.visible).toBe(false);
    state = sideNavReducer(state, setDoNotShowSideNav(true));
    state = sideNavReducer(state, setOpenedCategory('BARS'));
    state = sideNavReducer(state, setActiveSubCategory('Bar Front'));
    expect(state).toMatchObject({
      doNotShowSideNav: true,
      openedCategory: 'BARS',
      activeSubCategory: 'Bar Front',
    });
  });

  it('categories: pending loads, fulfilled stores, rejected says the inventory did not load and empties', () => {
    let state = sideNavReducer(initialSideNavState(), fetchCategories.pending('r'));
    expect(state.loading).toBe(true);
    const tree = categoryTree(answer);
    state = sideNavReducer(state, fetchCategories.fulfilled(tree, 'r'));
    expect(state).toMatchObject({ loading: false, error: false, categories: tree });
    state = sideNavReducer(
      state,
      fetchCategories.rejected(null, 'r', undefined, { status: 500, message: 'x' }),
    );
    expect(state).toMatchObject({
      loading: false,
      error: true,
      errorDetail: CATEGORIES_ERROR,
      categories: [],
    });
    expect(CATEGORIES_ERROR).toBe('The inventory did not load');
  });

  it('builds the category tree and the category map from the two lists', () => {
    const tree = categoryTree(answer);
    expect(tree).toEqual([
      {
        id: '1',
        name: 'BARS',
        subcategories: [
          { id: '11', name: 'Bar Front' },
          { id: '12', name: 'Back Bar' },
        ],
      },
      { id: '2', name: 'LIGHTING', subcategories: [{ id: '21', name: 'Uplights' }] },
    ]);
    expect(categoryMap(tree)).toEqual({ BARS: ['Bar Front', 'Back Bar'], LIGHTING: ['Uplights'] });
  });

  describe('against a server', () => {
    let server: ApiServer;
    let fail = false;
    beforeAll(async () => {
      server = await startApiServer({
        'GET /categories': () =>
          fail ? { status: 503, body: { message: 'down' } } : { body: { result: answer } },
      });
      http.defaults.baseURL = server.apiUrl;
    });
    afterAll(async () => {
      http.defaults.baseURL = '/api';
      await server.close();
    });

    it('loads GET /categories into the store, and reports a failure', async () => {
      const store = createAppStore();
      await store.dispatch(fetchCategories());
      expect(categoryMap(store.getState().sideNav.categories)).toEqual({
        BARS: ['Bar Front', 'Back Bar'],
        LIGHTING: ['Uplights'],
      });
      fail = true;
      await store.dispatch(fetchCategories());
      expect(store.getState().sideNav).toMatchObject({
        error: true,
        errorDetail: CATEGORIES_ERROR,
        categories: [],
      });
    });
  });
});
