/**
 * Side navigation state (spec §3-4): openedCategory, activeSubCategory, categories, loading, error,
 * errorDetail, doNotShowSideNav, visible.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { type ApiError, http, toApiError } from './http';
import type { Category } from './types';

export const CATEGORIES_ERROR = 'The inventory did not load';

export interface SideNavState {
  openedCategory: string | null;
  activeSubCategory: string | null;
  categories: Category[];
  loading: boolean;
  error: boolean;
  errorDetail: string | null;
  doNotShowSideNav: boolean;
  visible: boolean;
}

export const initialSideNavState = (): SideNavState => ({
  openedCategory: null,
  activeSubCategory: null,
  categories: [],
  loading: false,
  error: false,
  errorDetail: null,
  doNotShowSideNav: false,
  visible: false,
});

interface CategoriesAnswer {
  categories: { Id: string; Name: string }[];
  subcategories: { Id: string; Name: string; ParentRef: { value: string } }[];
}

/** The category call's two lists as one tree: category → its subcategories, in server order. */
export function categoryTree(answer: CategoriesAnswer): Category[] {
  return answer.categories.map((c) => ({
    id: c.Id,
    name: c.Name,
    subcategories: answer.subcategories
      .filter((s) => s.ParentRef.value === c.Id)
      .map((s) => ({ id: s.Id, name: s.Name })),
  }));
}

/** Spec §3 category map: category name → subcategory names. */
export function categoryMap(categories: readonly Category[]): Record<string, string[]> {
  return Object.fromEntries(categories.map((c) => [c.name, c.subcategories.map((s) => s.name)]));
}

export const fetchCategories = createAsyncThunk<Category[], void, { rejectValue: ApiError }>(
  'sideNav/fetchCategories',
  async (_arg, { rejectWithValue }) => {
    try {
      const response = await http.get<{ result: CategoriesAnswer }>('/categories');
      return categoryTree(response.data.result);
    } catch (error) {
      return rejectWithValue(toApiError(error));
    }
  },
);

const sideNavSlice = createSlice({
  name: 'sideNav',
  initialState: initialSideNavState,
  reducers: {
    toggleSideNav(state) {
      state.visible = !state.visible;
    },
    setSideNavVisible(state, action: PayloadAction<boolean>) {
      state.visible = action.payload;
    },
    setDoNotShowSideNav(state, action: PayloadAction<boolean>) {
      state.doNotShowSideNav = action.payload;
    },
    setOpenedCategory(state, action: PayloadAction<string | null>) {
      state.openedCategory = action.payload;
    },
    setActiveSubCategory(state, action: PayloadAction<string | null>) {
      state.activeSubCategory = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCategories.pending, (state) => {
        state.loading = true;
      })
      .addCase(fetchCategories.fulfilled, (state, action) => {
        state.categories = action.payload;
        state.loading = false;
        state.error = false;
        state.errorDetail = null;
      })
      .addCase(fetchCategories.rejected, (state) => {
        state.loading = false;
        state.error = true;
        state.errorDetail = CATEGORIES_ERROR;
        state.categories = [];
      });
  },
});

export const {
  toggleSideNav,
  setSideNavVisible,
  setDoNotShowSideNav,
  setOpenedCategory,
  setActiveSubCategory,
} = sideNavSlice.actions;
export const sideNavReducer = sideNavSlice.reducer;
