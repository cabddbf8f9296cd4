export { type InfraEndpoints, TEST_ENDPOINTS_ENV, testEndpoints } from './endpoints';
export { DEV_PORTS, type InfraHandle, type StartInfraOptions, startInfra } from './infra';
export { CACHE_DIR, INFRA_DIR } from './jars';
export { type KafkaOptions, startKafka } from './kafka';
export type { MailCatcherInfo } from './mail';
export { paymentsEnv } from './payments-env';
export {
  assertPortFree,
  belowRestartRanges,
  canConnect,
  freePort,
  PortTakenError,
  portFromEnv,
  restartPortRange,
} from './ports';
export { type ProcessSpec, ProcessStartError, prefixFor, type RunningProcess, startProcess } from './process';
export { qboEnv } from './qbo-env';
export { redisAnswers } from './redis';
export { describePolicy, type SupervisedProcess, superviseProcess } from './restart';
export { type ServiceProcess, spawnService, startServiceProcess } from './service-process';
export { startZipkin, ZIPKIN_VERSION, type ZipkinHandle } from './zipkin';
