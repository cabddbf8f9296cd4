export {
  createQueue,
  createWorker,
  DEFAULT_JOB_OPTIONS,
  enqueueOnce,
  type FailedJobRecord,
  type JobWorker,
  jobIdFor,
  listFailedJobs,
  PermanentJobError,
  type QueueConnectionOptions,
  replayFailedJob,
} from './queue';
export {
  type CreateRedisOptions,
  createRedis,
  pingRedis,
  REDIS_COMMAND_TIMEOUT_MS,
  redisReady,
  WORKER_OPTIONS,
} from './redis';
