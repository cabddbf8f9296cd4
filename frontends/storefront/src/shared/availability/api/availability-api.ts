/** GET /availability joined onto web-core's api: how many units of these products are free for a range of days. */
import type { ProductAvailability } from '@decor/contracts/rules';
import { api } from '@decor/web-core';

export interface AvailabilityQuery {
  from: string;
  to?: string;
  ids: string[];
}

/** The server answers at most this many products per call. */
export const MAX_IDS = 100;

export const availabilityApi = api.enhanceEndpoints({ addTagTypes: ['Availability'] }).injectEndpoints({
  endpoints: (build) => ({
    getAvailability: build.query<Map<string, ProductAvailability>, AvailabilityQuery>({
      query: ({ from, to, ids }) => ({
        url: '/availability',
        params: { from, to: to && to !== from ? to : undefined, id: ids.slice(0, MAX_IDS) },
      }),
      transformResponse: (answer: { result: ProductAvailability[] }) =>
        new Map(answer.result.map((a) => [a.id, a])),
      providesTags: [{ type: 'Availability', id: 'LIST' }],
      // Stock moves with every order: a screen shown again asks again.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetAvailabilityQuery } = availabilityApi;
