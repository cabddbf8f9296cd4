/**
 * The shop's acceptance settings (issue 30), joined onto the shared RTK Query api of @decor/web-core:
 * staff read them, the superadmin changes them (a new agreement text becomes a new version).
 */
import type { AcceptanceSettings, AcceptanceSettingsChange } from '@decor/contracts/rules';
import { api } from '@decor/web-core';

/** The answers may come bare or in the API's usual `{ result }` envelope. */
function unwrap<T>(answer: T | { result: T }): T {
  return answer && typeof answer === 'object' && 'result' in answer ? answer.result : (answer as T);
}

const settingsApi = api.enhanceEndpoints({ addTagTypes: ['AcceptanceSettings'] }).injectEndpoints({
  endpoints: (build) => ({
    getAcceptanceSettings: build.query<AcceptanceSettings, void>({
      query: () => ({ url: '/settings/acceptance' }),
      transformResponse: (answer: AcceptanceSettings | { result: AcceptanceSettings }) => unwrap(answer),
      providesTags: ['AcceptanceSettings'],
    }),
    saveAcceptanceSettings: build.mutation<AcceptanceSettings, AcceptanceSettingsChange>({
      query: (change) => ({ url: '/settings/acceptance', method: 'PUT', data: change }),
      transformResponse: (answer: AcceptanceSettings | { result: AcceptanceSettings }) => unwrap(answer),
      invalidatesTags: ['AcceptanceSettings'],
    }),
  }),
});

export const { useGetAcceptanceSettingsQuery, useSaveAcceptanceSettingsMutation } = settingsApi;
