export {
  createQueue,
  createWorker,
  DEFAULT_JOB_OPTIONS,
  enqueueOnce,
  type FailedJobRecord,
  jobIdFor,
  type JobWorker,
  listFailedJobs,
  PermanentJobError,
  type QueueConnectionOptions,
  replayFailedJob,
} from './queue';
export { createRedis, type CreateRedisOptions, pingRedis } from './redis';
