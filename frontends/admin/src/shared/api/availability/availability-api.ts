/**
 * The staff availability endpoints (issue 15), joined onto the shared RTK Query api of @decor/web-core:
 * the month calendar, the orders holding a product on a day, the conflicts, and the category names
 * the calendar filters by. Stock moves with every order: each screen shown asks again.
 */
import type { AvailabilityCalendar, AvailabilityConflict, DayHold } from '@decor/contracts/rules';
import { api } from '@decor/web-core';

const fresh = { keepUnusedDataFor: 0 } as const;

const availabilityApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCalendar: build.query<AvailabilityCalendar, { month: string; category?: string }>({
      query: ({ month, category }) => ({ url: '/availability/calendar', params: { month, category } }),
      transformResponse: (answer: { result: AvailabilityCalendar }) => answer.result,
      ...fresh,
    }),
    getDayHolds: build.query<DayHold[], { id: string; day: string }>({
      query: (params) => ({ url: '/availability/holds', params }),
      transformResponse: (answer: { result: DayHold[] }) => answer.result,
      ...fresh,
    }),
    getConflicts: build.query<AvailabilityConflict[], void>({
      query: () => ({ url: '/availability/conflicts' }),
      transformResponse: (answer: { result: AvailabilityConflict[] }) => answer.result,
      ...fresh,
    }),
    getCategoryNames: build.query<string[], void>({
      query: () => ({ url: '/categories' }),
      transformResponse: (answer: { result: { categories: { Name: string }[] } }) =>
        answer.result.categories.map((c) => c.Name),
    }),
  }),
});

export const { useGetCalendarQuery, useGetDayHoldsQuery, useGetConflictsQuery, useGetCategoryNamesQuery } =
  availabilityApi;
