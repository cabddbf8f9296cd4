import { PAYMENTS_DEV_KEYS, startPaymentsEmulator } from '@decor/payments-emulator';
import { DEMO_REALM_ID as QBO_DEMO_REALM_ID, QBO_DEV_CLIENT, startQboEmulator } from '@decor/qbo-emulator';
import type { InfraHandle } from './infra';
import { freePort } from './ports';
import { S3_DEFAULT_BUCKET, S3_REGION } from './s3';

/**
 * The same set as startInfra, as real images under testcontainers (DECOR_INFRA=containers).
 * Returns undefined when no container engine answers, so the caller falls back to local servers.
 * Images match docker-compose.yml. Not exercised on the development machines (no Docker there).
 */
export async function startContainerInfra(log: (line: string) => void): Promise<InfraHandle | undefined> {
  // Loaded lazily: testcontainers is large and only this path needs it.
  const tc = await import('testcontainers');
  try {
    await tc.getContainerRuntimeClient(); // rejects within milliseconds when there is no engine
  } catch {
    log('DECOR_INFRA=containers but no container engine answers; using the local servers instead');
    return undefined;
  }
  const { GenericContainer, Wait } = tc;

  // Clients outside the container must be told the host port, so it is chosen before the start.
  const kafkaPort = await freePort();
  const minioUser = 'decor-minio';
  const minioSecret = 'decor-minio-secret';
  const started = await Promise.all([
    new GenericContainer('apache/kafka:4.1.0')
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,BROKER://:9094,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort},BROKER://localhost:9094`,
        KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
        KAFKA_NUM_PARTITIONS: '6',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer('mongo:7.0')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forListeningPorts())
      .start(),
    new GenericContainer('redis:7.4')
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forListeningPorts())
      .start(),
    new GenericContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: minioUser, MINIO_ROOT_PASSWORD: minioSecret })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start(),
    new GenericContainer('axllent/mailpit:v1.27')
      .withExposedPorts(1025, 8025)
      .withWaitStrategy(Wait.forHttp('/readyz', 8025))
      .start(),
  ]);
  const [kafka, mongo, redis, minio, mailpit] = started;
  const at = (c: (typeof started)[number], port: number) => `${c.getHost()}:${c.getMappedPort(port)}`;

  const bucket = S3_DEFAULT_BUCKET;
  const s3 = {
    endpoint: `http://${at(minio, 9000)}`,
    region: S3_REGION,
    bucket,
    accessKeyId: minioUser,
    secretAccessKey: minioSecret,
  };
  // MinIO allows cross-origin requests by default; only the bucket has to exist.
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ ...s3, forcePathStyle: true, credentials: s3 });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();

  // The QuickBooks emulator is ours (no image): in-process, memory only, mailing to Mailpit.
  const smtp = { host: mailpit.getHost(), port: mailpit.getMappedPort(1025) };
  const qbo = await startQboEmulator({ port: 0, smtp, ...QBO_DEV_CLIENT });
  // So is the payments emulator (docker-compose.yml uses Stripe itself).
  const payments = await startPaymentsEmulator({ port: 0 });

  log(`✓ containers kafka ${kafka.getHost()}:${kafkaPort}, mongo, redis, minio, mailpit`);
  return {
    endpoints: {
      mongoUrl: `mongodb://${at(mongo, 27017)}`,
      kafkaBrokers: [`127.0.0.1:${kafkaPort}`],
      redisUrl: `redis://${at(redis, 6379)}`,
      s3,
      smtp,
      mailApiUrl: `http://${at(mailpit, 8025)}`,
      qbo: { url: qbo.url, ...QBO_DEV_CLIENT, realmId: QBO_DEMO_REALM_ID },
      payments: { url: payments.url, ...PAYMENTS_DEV_KEYS },
    },
    stop: async () => {
      await Promise.allSettled([qbo.close(), payments.close(), ...started.map((c) => c.stop())]);
    },
  };
}
