import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { EventEnvelope } from '@decor/contracts';
import { type StartedService, startService } from '@decor/kit';
import { type Answer, call, RUN_ID, serviceEnv, testEndpoints, topicEvents } from '@decor/kit/testing';

export { type Answer, call };

import type { Kafka } from 'kafkajs';
import { catalogueService } from '../src/app';
import { loadCatalogueConfig } from '../src/config';
import type { CatalogueContext } from '../src/context';

export type Catalogue = StartedService<CatalogueContext>;

/** Env of a catalogue instance of this test file: its own database, topics and S3 folder. */
export async function catalogueEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const { s3 } = testEndpoints();
  return serviceEnv('catalogue', {
    S3_ENDPOINT: s3.endpoint,
    S3_PUBLIC_URL: `${s3.endpoint}/${s3.bucket}`,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_KEY_PREFIX: `${RUN_ID}/products`,
    ...extra,
  });
}

export async function startCatalogue(extra: Record<string, string> = {}): Promise<Catalogue> {
  return startService(catalogueService(loadCatalogueConfig(await catalogueEnv(extra))), { exit: () => {} });
}

/** Drops the instance's database and this run's image files, then stops it. */
export async function stopAndClean(service: Catalogue | undefined): Promise<void> {
  if (!service) return;
  const { images, config, connection } = service.ctx;
  const listed = await images.client.send(
    new ListObjectsV2Command({ Bucket: config.S3_BUCKET, Prefix: `${config.S3_KEY_PREFIX}/` }),
  );
  await images.deleteKeys((listed.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
  await connection.dropDatabase();
  await service.shutdown('test over');
}

export type Role = 'customer' | 'admin' | 'superadmin';

export function tokenFor(service: Catalogue, permissions: Role): string {
  return service.app.signToken({
    id: randomUUID().replace(/-/g, '').slice(0, 24),
    permissions,
    email: `${permissions}@decor.example`,
  });
}

/** The run's catalogue topic read from the start until `done` (see `topicEvents`). */
export function catalogueEvents(
  kafka: Kafka,
  done: (events: EventEnvelope[]) => boolean,
  { timeoutMs = 15_000, topic = `${RUN_ID}.catalogue` } = {},
): Promise<EventEnvelope[]> {
  return topicEvents(kafka, topic, done, { timeoutMs });
}
