/**
 * The sync-health endpoints, joined onto the shared RTK Query api of @decor/web-core (one cache, one
 * axios client, the shell's store). Retry and Replay invalidate the lists they change.
 */
import { api } from '@decor/web-core';
import type { DeadLetter, FailedJob, QboStatus } from './types';

const syncApi = api
  .enhanceEndpoints({ addTagTypes: ['QboStatus', 'QboFailedJobs', 'QboDeadLetters'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getQboStatus: build.query<QboStatus, void>({
        query: () => ({ url: '/qbo/status' }),
        transformResponse: (answer: { result: QboStatus }) => answer.result,
        providesTags: ['QboStatus'],
      }),
      getFailedJobs: build.query<FailedJob[], void>({
        query: () => ({ url: '/qbo/jobs/failed' }),
        transformResponse: (answer: { result: FailedJob[] }) => answer.result,
        providesTags: ['QboFailedJobs'],
      }),
      retryFailedJob: build.mutation<{ id: string; state: string }, { queue: string; id: string }>({
        query: ({ queue, id }) => ({
          url: `/qbo/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}/retry`,
          method: 'POST',
        }),
        transformResponse: (answer: { result: { id: string; state: string } }) => answer.result,
        invalidatesTags: ['QboFailedJobs', 'QboStatus'],
      }),
      getDeadLetters: build.query<DeadLetter[], void>({
        query: () => ({ url: '/qbo/dead-letters' }),
        transformResponse: (answer: { result: DeadLetter[] }) => answer.result,
        providesTags: ['QboDeadLetters'],
      }),
      replayDeadLetter: build.mutation<{ id: string }, string>({
        query: (id) => ({ url: `/qbo/dead-letters/${encodeURIComponent(id)}/replay`, method: 'POST' }),
        transformResponse: (answer: { result: { id: string } }) => answer.result,
        invalidatesTags: ['QboDeadLetters', 'QboStatus'],
      }),
    }),
  });

export const {
  useGetQboStatusQuery,
  useGetFailedJobsQuery,
  useRetryFailedJobMutation,
  useGetDeadLettersQuery,
  useReplayDeadLetterMutation,
} = syncApi;
