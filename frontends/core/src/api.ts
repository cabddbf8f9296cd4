/**
 * Server data (products, carts, estimates) through RTK Query over the one axios client, so lists
 * cache, refetch and invalidate by tags. Errors reach components as ApiError {status, message}.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import type { AxiosRequestConfig } from 'axios';
import { type ApiError, http, toApiError, totalCountOf } from './http';
import { serverStateArrived } from './server-state';
import type { Cart, EstimateRequest, Page, Product, TruckingFee } from './types';

export interface AxiosArgs {
  url: string;
  method?: AxiosRequestConfig['method'];
  data?: unknown;
  params?: AxiosRequestConfig['params'];
  headers?: Record<string, string>;
}

export interface AxiosMeta {
  totalCount?: number;
  headers: Record<string, string>;
}

/** RTK Query's base query over the shared axios instance. */
export const axiosBaseQuery =
  (client = http): BaseQueryFn<AxiosArgs, unknown, ApiError, unknown, AxiosMeta> =>
  async ({ url, method = 'GET', data, params, headers }) => {
    try {
      const response = await client.request({ url, method, data, params, headers, paramsSerializer });
      const meta: AxiosMeta = {
        headers: Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
        ),
      };
      const total = totalCountOf(response, Number.NaN);
      if (Number.isFinite(total)) meta.totalCount = total;
      return { data: response.data, meta };
    } catch (error) {
      return { error: toApiError(error) };
    }
  };

/** Repeated keys for arrays (subcategory=a&subcategory=b), as the list conventions expect. */
function paramsSerializer(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search.toString();
}

export const CARTS_PAGE_SIZE = 20;
/** The inventory list asks for this many products at a time (more on scroll). */
export const PRODUCTS_PAGE_SIZE = 48;

/**
 * An offset-paged list's infinite-query options: the next offset while rows remain (the total from
 * the total_count header), none once everything is loaded or a page came back empty.
 */
export function offsetPaging(pageSize: number) {
  return {
    initialPageParam: 0,
    getNextPageParam: (lastPage: Page<unknown>, allPages: Page<unknown>[], lastOffset: number) => {
      const loaded = allPages.reduce((n, page) => n + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? lastOffset + pageSize : undefined;
    },
  };
}

/** A page of a list, its total from the total_count header. */
function toPage<T>(answer: { result: T[] }, meta: AxiosMeta | undefined): Page<T> {
  return { items: answer.result, total: meta?.totalCount ?? answer.result.length };
}

export interface ProductQuery {
  category?: string;
  subcategory?: string[];
}

export interface CartLineSave {
  cartId: string;
  productId: string;
  qty: number;
  price?: number;
}

function one<T>(answer: { result: T[] }): T | undefined {
  return answer.result[0];
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: axiosBaseQuery(),
  // A server-rendered page carries the answers it was rendered from: the first render uses them.
  extractRehydrationInfo: (action, { reducerPath }) =>
    serverStateArrived.match(action) ? (action.payload[reducerPath] as never) : undefined,
  tagTypes: ['Product', 'Cart', 'CartList', 'ActiveCart', 'Estimate', 'Trucking'],
  endpoints: (build) => ({
    getProducts: build.query<Product[], ProductQuery>({
      query: ({ category, subcategory }) => ({
        url: '/product',
        params: { category, subcategory, limit: 100, order: 'name:ASC' },
      }),
      transformResponse: (answer: { result: Product[] }) => answer.result,
      providesTags: (products) => [
        { type: 'Product', id: 'LIST' },
        ...(products ?? []).map((p) => ({ type: 'Product' as const, id: p.id })),
      ],
    }),
    /** A subcategory's products, PRODUCTS_PAGE_SIZE at a time, by name (the inventory list). */
    listProducts: build.infiniteQuery<Page<Product>, ProductQuery, number>({
      infiniteQueryOptions: offsetPaging(PRODUCTS_PAGE_SIZE),
      query: ({ queryArg: { category, subcategory }, pageParam }) => ({
        url: '/product',
        params: { category, subcategory, limit: PRODUCTS_PAGE_SIZE, offset: pageParam, order: 'name:ASC' },
      }),
      transformResponse: (answer: { result: Product[] }, meta) => toPage(answer, meta),
      providesTags: (data) => [
        { type: 'Product', id: 'LIST' },
        ...(data?.pages ?? []).flatMap((page) =>
          page.items.map((p) => ({ type: 'Product' as const, id: p.id })),
        ),
      ],
    }),
    getProduct: build.query<Product | null, string>({
      query: (id) => ({ url: `/product/${encodeURIComponent(id)}` }),
      transformResponse: (answer: { result: Product[] }) => one(answer) ?? null,
      providesTags: (_p, _e, id) => [{ type: 'Product', id }],
    }),
    getCart: build.query<Cart | null, { id: string; isActive?: boolean }>({
      query: ({ id, isActive }) => ({
        url: `/cart/${encodeURIComponent(id)}/products`,
        params: isActive === undefined ? undefined : { isActive },
      }),
      transformResponse: (answer: { result: Cart[] }) => one(answer) ?? null,
      providesTags: (_c, _e, { id }) => [{ type: 'Cart', id }],
    }),
    /**
     * The signed-in customer's active cart (GET /cart?isActive=true, from the cart service itself, so a
     * line just saved is in its total). The argument is the user's id: one cache entry per viewer, so a
     * customer never sees the cart of whoever used the browser before. Every cart change refetches it
     * through its tags: a line added or removed and a rename ({Cart, id}), Set Active, checkout and copy.
     */
    getActiveCart: build.query<Cart | null, string>({
      query: () => ({ url: '/cart', params: { isActive: true, limit: 1 } }),
      transformResponse: (answer: { result: Cart[] }) => one(answer) ?? null,
      providesTags: (cart) =>
        cart ? [{ type: 'ActiveCart' }, { type: 'Cart', id: cart.id }] : [{ type: 'ActiveCart' }],
    }),
    listCarts: build.infiniteQuery<Page<Cart>, void, number>({
      infiniteQueryOptions: offsetPaging(CARTS_PAGE_SIZE),
      query: ({ pageParam }) => ({
        url: '/cart',
        params: { didCheckOut: false, order: 'createdAt:DESC', limit: CARTS_PAGE_SIZE, offset: pageParam },
      }),
      transformResponse: (answer: { result: Cart[] }, meta) => toPage(answer, meta),
      providesTags: [{ type: 'CartList', id: 'LIST' }],
    }),
    createCart: build.mutation<Cart, { cartName?: string }>({
      query: (body) => ({ url: '/cart', method: 'POST', data: { ...body, isActive: false } }),
      transformResponse: (answer: { result: Cart }) => answer.result,
      invalidatesTags: [{ type: 'CartList', id: 'LIST' }],
    }),
    updateCart: build.mutation<
      Cart,
      { id: string; cartName?: string; isActive?: boolean; didCheckOut?: boolean }
    >({
      query: ({ id, ...body }) => ({ url: `/cart/${encodeURIComponent(id)}`, method: 'PUT', data: body }),
      transformResponse: (answer: { result: Cart }) => answer.result,
      // Set Active changes two carts (the previous active one too): refetch every cart on screen.
      invalidatesTags: (_c, _e, { id, isActive }) =>
        isActive === undefined
          ? [
              { type: 'Cart', id },
              { type: 'CartList', id: 'LIST' },
            ]
          : ['Cart', 'ActiveCart', { type: 'CartList', id: 'LIST' }],
    }),
    deleteCart: build.mutation<{ id: string }, string>({
      query: (id) => ({ url: `/cart/${encodeURIComponent(id)}`, method: 'DELETE' }),
      transformResponse: (answer: { result: { id: string } }) => answer.result,
      invalidatesTags: (_r, _e, id) => [
        { type: 'Cart', id },
        { type: 'CartList', id: 'LIST' },
      ],
    }),
    /** Sets a line's quantity (creates the line when missing); answers the whole cart. */
    saveCartLine: build.mutation<Cart, CartLineSave>({
      query: ({ cartId, productId, qty, price }) => ({
        url: `/cart/${encodeURIComponent(cartId)}/cartProduct/${encodeURIComponent(productId)}`,
        method: 'POST',
        data: price === undefined ? { qty } : { qty, price },
      }),
      transformResponse: (answer: { result: Cart }) => answer.result,
      invalidatesTags: (_c, _e, { cartId }) => [
        { type: 'Cart', id: cartId },
        { type: 'CartList', id: 'LIST' },
      ],
    }),
    removeCartLine: build.mutation<Cart, { cartId: string; cartProductId: string }>({
      query: ({ cartProductId }) => ({
        url: `/cartProduct/${encodeURIComponent(cartProductId)}`,
        method: 'DELETE',
      }),
      transformResponse: (answer: { result: Cart }) => answer.result,
      invalidatesTags: (_c, _e, { cartId }) => [
        { type: 'Cart', id: cartId },
        { type: 'CartList', id: 'LIST' },
      ],
    }),
    createEstimate: build.mutation<
      { id: string; DocNumber?: string },
      { body: EstimateRequest; key: string }
    >({
      query: ({ body, key }) => ({
        url: '/estimate',
        method: 'POST',
        data: body,
        headers: { 'Idempotency-Key': key },
      }),
      transformResponse: (answer: { result: { id: string; DocNumber?: string } }) => answer.result,
      // The cart is checked out and a new active one opened (by the cart service, from the order's event).
      invalidatesTags: ['Estimate', 'Cart', 'ActiveCart', { type: 'CartList', id: 'LIST' }],
    }),
    /** The answer's `token` header (a session of the new version) replaces the stored token. */
    changePassword: build.mutation<unknown, { id: string; password: string; currentPassword: string }>({
      query: ({ id, password, currentPassword }) => ({
        url: `/user/${encodeURIComponent(id)}`,
        method: 'PUT',
        data: { password, currentPassword },
      }),
    }),
    getTruckingFee: build.query<TruckingFee, void>({
      query: () => ({ url: '/trucking' }),
      transformResponse: (answer: { result: TruckingFee }) => answer.result,
      providesTags: ['Trucking'],
    }),
    changeTruckingFee: build.mutation<TruckingFee, TruckingFee>({
      query: ({ id, value }) => ({
        url: `/trucking/${encodeURIComponent(id)}`,
        method: 'PUT',
        data: { value },
      }),
      transformResponse: (answer: { result: TruckingFee }) => answer.result,
      invalidatesTags: ['Trucking'],
    }),
  }),
});

export const {
  useGetProductsQuery,
  useListProductsInfiniteQuery,
  useGetProductQuery,
  useGetCartQuery,
  useListCartsInfiniteQuery,
  useCreateCartMutation,
  useUpdateCartMutation,
  useDeleteCartMutation,
  useSaveCartLineMutation,
  useRemoveCartLineMutation,
  useCreateEstimateMutation,
  useChangePasswordMutation,
  useGetTruckingFeeQuery,
  useChangeTruckingFeeMutation,
} = api;
