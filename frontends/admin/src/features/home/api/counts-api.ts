/**
 * The landing page's counts: one row of a list (limit=1) and its total_count header, from the same
 * list endpoints the orders and users screens use. Joined onto the shared RTK Query api.
 */
import { api } from '@decor/web-core';

export type CountedList =
  | { url: '/estimate'; params: { status: 'Pending' } | { hasBeenModified: 'true' } }
  | { url: '/user'; params: { permissions: 'customer' } };

const countsApi = api.injectEndpoints({
  endpoints: (build) => ({
    countList: build.query<number, CountedList>({
      query: ({ url, params }) => ({ url, params: { ...params, limit: 1 } }),
      transformResponse: (answer: { result: unknown[] }, meta) => meta?.totalCount ?? answer.result.length,
    }),
  }),
});

export const { useCountListQuery } = countsApi;
