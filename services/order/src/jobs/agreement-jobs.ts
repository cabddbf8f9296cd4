import { createHash } from 'node:crypto';
import { createQueue, createWorker, enqueueOnce, type JobWorker } from '@decor/kit';
import type { Queue } from 'bullmq';
import type { OrderContext } from '../context';
import type { AcceptanceRecord } from '../domain/acceptance';
import { agreementPdf } from '../domain/agreement-pdf';
import { agreementOf } from '../store/acceptance-settings';
import { recordAgreement } from '../store/agreements';
import type { Estimate } from '../store/estimate-model';
import { HIDDEN } from '../store/orders';

/**
 * The signed agreement's PDF (issue 30), made after an acceptance by a job whose id is its cause
 * (the estimate and the acceptance's time): a redelivered EstimateAccepted adds nothing, and a
 * failed attempt (S3 down) is retried with backoff. The PDF is made from the stored record only, so
 * a retry makes the same document; it is stored, then recorded (AgreementSigned) in one guarded write.
 */
export const AGREEMENT_QUEUE = 'order-agreements';

export interface AgreementJob {
  estimateId: string;
  /** The acceptance's time (ISO): the acceptance this PDF belongs to. */
  acceptedAt: string;
  correlationId: string;
}

export function agreementQueue(ctx: Pick<OrderContext, 'redis' | 'config' | 'log'>): Queue<AgreementJob> {
  return createQueue<AgreementJob>(AGREEMENT_QUEUE, {
    connection: ctx.redis,
    prefix: ctx.config.REDIS_PREFIX,
    logger: ctx.log,
    defaultJobOptions: { attempts: 12, backoff: { type: 'exponential', delay: 2000 } },
  });
}

export const enqueueAgreement = (queue: Queue<AgreementJob>, job: AgreementJob) =>
  enqueueOnce(queue, 'make-agreement', job, {
    jobId: `agreement.${job.estimateId}.${Date.parse(job.acceptedAt)}`,
  });

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The PDF of a stored record: the same record makes the same bytes (verify recomputes it). */
export async function agreementOfRecord(ctx: OrderContext, record: AcceptanceRecord): Promise<Uint8Array> {
  const agreement = await agreementOf(
    ctx.acceptanceSettings,
    record.agreementVersion,
    record.agreementSha256,
  );
  const signature = record.signature
    ? Buffer.from(record.signature.slice(record.signature.indexOf(',') + 1), 'base64')
    : null;
  return agreementPdf({
    record: { ...record, at: new Date(record.at) },
    agreementText: agreement.text,
    signaturePng: signature,
    companyName: ctx.config.COMPANY_NAME,
  });
}

/** Makes, stores and records one acceptance's PDF; nothing when it is made already or voided since. */
export async function makeAgreement(ctx: OrderContext, job: AgreementJob): Promise<boolean> {
  const doc = await ctx.estimates.findById(job.estimateId, HIDDEN).lean<Estimate>();
  const record = doc?.acceptance as AcceptanceRecord | null | undefined;
  const acceptedAt = new Date(job.acceptedAt);
  if (!record || new Date(record.at).getTime() !== acceptedAt.getTime() || record.pdf) return false;
  const bytes = await agreementOfRecord(ctx, record);
  const key = ctx.agreementFiles.keyOf(job.estimateId, acceptedAt);
  await ctx.agreementFiles.put(key, bytes);
  return recordAgreement(ctx, job.estimateId, acceptedAt, { key, sha256: sha256(bytes) }, job.correlationId);
}

export function agreementWorker(ctx: OrderContext): JobWorker<AgreementJob> {
  return createWorker<AgreementJob>(
    AGREEMENT_QUEUE,
    async (job) => void (await makeAgreement(ctx, job.data)),
    {
      connection: ctx.redis,
      prefix: ctx.config.REDIS_PREFIX,
      concurrency: ctx.config.AGREEMENT_JOB_CONCURRENCY,
      logger: ctx.log,
    },
  );
}
