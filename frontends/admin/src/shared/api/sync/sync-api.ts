/**
 * The sync-health endpoints, joined onto the shared RTK Query api of @decor/web-core (one cache, one
 * axios client, the shell's store). Retry and Replay invalidate the lists they change.
 */
import {
  api,
  EMAIL_QUEUE_PATH,
  type EmailQueueCounts,
  FAILED_EMAILS_PATH,
  type FailedEmail,
  failedEmailReplayPath,
} from '@decor/web-core';
import type { DeadLetter, FailedJob, QboStatus } from './types';

const syncApi = api
  .enhanceEndpoints({ addTagTypes: ['QboStatus', 'QboFailedJobs', 'QboDeadLetters', 'FailedEmails'] })
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
      getFailedEmails: build.query<FailedEmail[], void>({
        query: () => ({ url: FAILED_EMAILS_PATH }),
        transformResponse: (answer: { result: FailedEmail[] }) => answer.result,
        providesTags: ['FailedEmails'],
      }),
      getEmailQueue: build.query<EmailQueueCounts, void>({
        query: () => ({ url: EMAIL_QUEUE_PATH }),
        transformResponse: (answer: { result: EmailQueueCounts }) => answer.result,
        providesTags: ['FailedEmails'],
      }),
      replayFailedEmail: build.mutation<{ id: string; state: string }, string>({
        query: (id) => ({ url: failedEmailReplayPath(id), method: 'POST' }),
        transformResponse: (answer: { result: { id: string; state: string } }) => answer.result,
        invalidatesTags: ['FailedEmails'],
      }),
    }),
  });

export const {
  useGetQboStatusQuery,
  useGetFailedJobsQuery,
  useRetryFailedJobMutation,
  useGetDeadLettersQuery,
  useReplayDeadLetterMutation,
  useGetFailedEmailsQuery,
  useGetEmailQueueQuery,
  useReplayFailedEmailMutation,
} = syncApi;
