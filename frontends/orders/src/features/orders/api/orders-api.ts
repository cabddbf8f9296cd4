/**
 * The order calls (spec orders §7) joined to the one RTK Query api of @decor/web-core, so the cache
 * and the store are the shell's. Both remotes bundle this package; each endpoint is defined once
 * (a second injection of the same names is ignored).
 */
import type {
  AcceptanceExtension,
  AcceptanceRequest,
  AcceptanceSettings,
  AcceptanceView,
  DepositOnVoid,
  StatusChange,
} from '@decor/contracts/rules';
import { api, type Page, type Product } from '@decor/web-core';
import { ORDERS_PAGE_SIZE } from '../texts';
import type { AcceptanceFilter, Order, OrderFilter, OrderType } from '../types';

export interface OrderListArgs {
  type: OrderType;
  filter: OrderFilter;
  /** DocNumber prefix. */
  search: string;
  /** Staff: one customer's orders. */
  userId?: string;
  /** Staff, estimates: where their acceptance stands (issue 30). */
  acceptance?: AcceptanceFilter;
}

export interface OrderWithHeader {
  order: Order;
  /** Header can-be-modified. */
  canBeModified: boolean;
}

export type OrderChanges = Partial<Record<string, string | null>> & {
  CartProducts?: { id: string; qty: number }[];
  status?: StatusChange;
  /** With { status: 'Voided' } of an invoice whose deposit was taken: refund or keep it (issue 30). */
  depositAction?: DepositOnVoid;
};

const path = (type: OrderType, id?: string) =>
  id === undefined ? `/${type}` : `/${type}/${encodeURIComponent(id)}`;

/** How many products the quick add offers at once (a name prefix narrows them). */
export const QUICK_ADD_LIMIT = 50;

/** The list query's parameters (spec §7, §9: limit 20, newest first). */
export function listParams(args: OrderListArgs, offset: number): Record<string, string | number> {
  const params: Record<string, string | number> = {
    limit: ORDERS_PAGE_SIZE,
    offset,
    order: 'createdAt:DESC',
  };
  if (args.filter === 'hasBeenModified') params.hasBeenModified = 'true';
  else if (args.filter !== 'all') params.status = args.filter[0]?.toUpperCase() + args.filter.slice(1);
  const search = args.search.trim();
  if (search) params.like = `DocNumber:${search}`;
  if (args.userId) params.UserId = args.userId;
  if (args.type === 'estimate' && args.acceptance && args.acceptance !== 'all')
    params.acceptance = args.acceptance;
  return params;
}

/** Issue 30's answers may come bare or in the API's usual `{ result }` envelope. */
function unwrap<T>(answer: T | { result: T }): T {
  return answer && typeof answer === 'object' && 'result' in answer ? answer.result : (answer as T);
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['Order', 'OrderList'] });

export const ordersApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    listOrders: build.infiniteQuery<Page<Order>, OrderListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (lastPage, allPages, lastOffset) => {
          const loaded = allPages.reduce((n, page) => n + page.items.length, 0);
          return loaded < lastPage.total && lastPage.items.length > 0
            ? lastOffset + ORDERS_PAGE_SIZE
            : undefined;
        },
      },
      query: ({ queryArg, pageParam }) => ({
        url: path(queryArg.type),
        params: listParams(queryArg, pageParam),
      }),
      transformResponse: (answer: { result: Order[] }, meta) => ({
        items: answer.result,
        total: meta?.totalCount ?? answer.result.length,
      }),
      providesTags: [{ type: 'OrderList', id: 'LIST' }],
    }),
    getOrder: build.query<OrderWithHeader, { type: OrderType; id: string }>({
      query: ({ type, id }) => ({ url: path(type, id) }),
      transformResponse: (answer: { result: Order }, meta) => ({
        order: answer.result,
        canBeModified: meta?.headers['can-be-modified'] === 'true',
      }),
      providesTags: (_r, _e, { type, id }) => [{ type: 'Order', id: `${type}:${id}` }],
    }),
    /**
     * The quick add's choices (spec §5): products in stock (quantity above 0), every category incl.
     * Warehouse lines such as Labor, by name; `search` is a name prefix.
     */
    quickAddProducts: build.query<Product[], string>({
      query: (search) => ({
        url: '/product',
        params: {
          gt: 'quantity:0',
          limit: QUICK_ADD_LIMIT,
          order: 'name:ASC',
          ...(search ? { like: `name:${search}` } : {}),
        },
      }),
      transformResponse: (answer: { result: Product[] }) => answer.result,
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    /** The invoices of an estimate (GET /invoice?EstimateId=). */
    linkedInvoices: build.query<Order[], string>({
      query: (estimateId) => ({ url: '/invoice', params: { EstimateId: estimateId, limit: 1, offset: 0 } }),
      transformResponse: (answer: { result: Order[] }) => answer.result,
      providesTags: [{ type: 'OrderList', id: 'LIST' }],
    }),
    /** `overbook` (staff only): book lines beyond the units free anyway, as a sub-rental (issue 15). */
    updateOrder: build.mutation<
      unknown,
      { type: OrderType; id: string; changes: OrderChanges; overbook?: boolean }
    >({
      query: ({ type, id, changes, overbook }) => ({
        url: path(type, id),
        method: 'PUT',
        data: overbook ? { ...changes, overbook: true } : changes,
      }),
      invalidatesTags: (_r, _e, { type, id }) => [
        { type: 'Order', id: `${type}:${id}` },
        { type: 'OrderList', id: 'LIST' },
      ],
    }),
    requestInvoice: build.mutation<{ id: string }, { estimateId: string; key: string }>({
      query: ({ estimateId, key }) => ({
        url: '/invoice',
        method: 'POST',
        data: { EstimateId: estimateId },
        headers: { 'Idempotency-Key': key },
      }),
      transformResponse: (answer: { result: { id: string } }) => answer.result,
      invalidatesTags: (_r, _e, { estimateId }) => [
        { type: 'Order', id: `estimate:${estimateId}` },
        { type: 'OrderList', id: 'LIST' },
      ],
    }),
    /** Staff: send (POST) or update (PUT) the order in QuickBooks; 202, the sync follows. */
    syncToQbo: build.mutation<unknown, { type: OrderType; id: string; update: boolean }>({
      query: ({ type, id, update }) => ({
        url: update ? `/qbo/${type}/` : `/qbo/${type}`,
        method: update ? 'PUT' : 'POST',
        data: { id },
      }),
      invalidatesTags: (_r, _e, { type, id }) => [
        { type: 'Order', id: `${type}:${id}` },
        { type: 'OrderList', id: 'LIST' },
      ],
    }),
    /**
     * Where the customer's acceptance of an estimate stands (issue 30). Tagged as the estimate, so
     * the live order stream's change of it refreshes this too.
     */
    getAcceptance: build.query<AcceptanceView, string>({
      query: (id) => ({ url: `${path('estimate', id)}/acceptance` }),
      transformResponse: (answer: AcceptanceView | { result: AcceptanceView }) => unwrap(answer),
      providesTags: (_r, _e, id) => [{ type: 'Order', id: `estimate:${id}` }],
    }),
    /** The customer signs and authorises the deposit; `key` is one per accept screen opened. */
    acceptEstimate: build.mutation<AcceptanceView, { id: string; key: string; body: AcceptanceRequest }>({
      query: ({ id, key, body }) => ({
        url: `${path('estimate', id)}/acceptance`,
        method: 'POST',
        data: body,
        headers: { 'Idempotency-Key': key },
      }),
      transformResponse: (answer: AcceptanceView | { result: AcceptanceView }) => unwrap(answer),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Order', id: `estimate:${id}` },
        { type: 'OrderList', id: 'LIST' },
      ],
    }),
    /**
     * Staff extend an offer (issue 30): it may be accepted for `days` more days from now. A 409 says
     * why not (accepted, not offered) or which lines no longer fit (`shortLines`).
     */
    extendAcceptance: build.mutation<AcceptanceView, { id: string } & AcceptanceExtension>({
      query: ({ id, days }) => ({
        url: `${path('estimate', id)}/acceptance/extend`,
        method: 'POST',
        data: { days },
      }),
      transformResponse: (answer: AcceptanceView | { result: AcceptanceView }) => unwrap(answer),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Order', id: `estimate:${id}` },
        { type: 'OrderList', id: 'LIST' },
      ],
    }),
    /** The shop's acceptance settings (staff): the extend dialog starts from its validity days. */
    shopAcceptanceSettings: build.query<AcceptanceSettings, void>({
      query: () => ({ url: '/settings/acceptance' }),
      transformResponse: (answer: AcceptanceSettings | { result: AcceptanceSettings }) => unwrap(answer),
    }),
    copyCart: build.mutation<unknown, { from: string; to: string }>({
      query: ({ from, to }) => ({
        url: `/cart/${encodeURIComponent(from)}/copy/${encodeURIComponent(to)}`,
        method: 'PUT',
      }),
      invalidatesTags: (_r, _e, { to }) => [
        { type: 'Cart', id: to },
        { type: 'CartList', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useListOrdersInfiniteQuery,
  useGetOrderQuery,
  useLinkedInvoicesQuery,
  useQuickAddProductsQuery,
  useUpdateOrderMutation,
  useRequestInvoiceMutation,
  useSyncToQboMutation,
  useCopyCartMutation,
  useGetAcceptanceQuery,
  useAcceptEstimateMutation,
  useExtendAcceptanceMutation,
  useShopAcceptanceSettingsQuery,
} = ordersApi;
