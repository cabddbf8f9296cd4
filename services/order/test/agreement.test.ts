/**
 * Issue 30, the signed agreement: after an acceptance a job makes the PDF, stores it in S3 (the test
 * infra's s3rver) and records its key and SHA-256 with AgreementSigned; its customer and staff
 * download it, others get 404; verify recomputes it from the record and catches a tampered file.
 * No deposit is due here (the settings say none), so no payment provider is needed.
 */
import { randomBytes } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DEFAULT_AGREEMENT_TEXT } from '@decor/contracts';
import { eventually, RUN_ID } from '@decor/kit/testing';
import { PDFDocument } from 'pdf-lib';
import type { Estimate } from '../src/store/estimate-model';
import {
  addCustomer,
  eventsOf,
  type Order,
  orderCall,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

/** A 1×1 PNG. */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let service: Order;
let alice: TestCustomer;
let bob: TestCustomer;
let staff: string;

beforeAll(async () => {
  service = await startOrder(); // with the test infra's S3 (support.ts)
  staff = tokenFor(service, 'admin');
  alice = await addCustomer(service);
  bob = await addCustomer(service);
  // No deposit: the acceptance needs no payment provider.
  const none = await orderCall(service, 'PUT', '/settings/acceptance', tokenFor(service, 'superadmin'), {
    validityDays: 14,
    agreementText: DEFAULT_AGREEMENT_TEXT,
  });
  expect(none.status).toBe(200);
}, 120_000);
afterAll(() => stopAndClean(service));

const stored = (id: string) => service.ctx.estimates.findById(id).lean<Estimate>();

/** An Open estimate of alice's, accepted: its id and the acceptance view. */
async function accepted() {
  const { id } = await submitted(service, alice);
  await qboSynced(service, 'estimate', id, 'created');
  const view = await orderCall(service, 'GET', `/estimate/${id}/acceptance`, alice.token);
  const post = await orderCall(
    service,
    'POST',
    `/estimate/${id}/acceptance`,
    alice.token,
    {
      estimateVersion: view.body.result.estimateVersion,
      signerName: 'Alice Signer',
      signature: SIGNATURE,
      agree: true,
      paymentMethod: 'pm_card_visa',
    },
    { 'idempotency-key': randomBytes(8).toString('hex') },
  );
  expect(post.status).toBe(201);
  return id;
}

const pdfOf = (id: string, token: string) =>
  fetch(`${service.url}/estimate/${id}/agreement.pdf`, { headers: { authorization: `Bearer ${token}` } });

describe('the signed agreement', () => {
  let id: string;
  beforeAll(async () => {
    id = await accepted();
  }, 120_000);

  it('is made after the acceptance: recorded (key, SHA-256), AgreementSigned, and the view links it', async () => {
    const doc = await eventually(() => stored(id).then((d) => (d?.acceptance?.pdf ? d : undefined)), 60_000);
    const pdf = doc.acceptance?.pdf;
    expect(pdf?.key).toMatch(new RegExp(`^${RUN_ID}/agreements/${id}/\\d+\\.pdf$`));
    expect(pdf?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const signed = (await eventsOf(service, id)).filter((e) => e.type === 'AgreementSigned');
    expect(signed).toHaveLength(1);
    expect(signed[0]?.payload).toMatchObject({
      estimateId: id,
      signerName: 'Alice Signer',
      pdfKey: pdf?.key,
      sha256: pdf?.sha256,
      order: { customer: { email: alice.email } },
    });
    const view = await orderCall(service, 'GET', `/estimate/${id}/acceptance`, alice.token);
    expect(view.body.result.accepted.pdf).toBe(`/api/estimate/${id}/agreement.pdf`);
  });

  it('its customer and staff download it (a PDF of the record); another customer gets 404', async () => {
    await eventually(() => stored(id).then((d) => d?.acceptance?.pdf), 60_000);
    for (const token of [alice.token, staff]) {
      const res = await pdfOf(id, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const doc = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
      expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
      expect(doc.getTitle()).toMatch(/^Rental agreement, estimate #/);
    }
    expect((await pdfOf(id, bob.token)).status).toBe(404);
    expect((await orderCall(service, 'GET', `/estimate/${id}/agreement/verify`, bob.token)).status).toBe(404);
  });

  it('verify: matches; a tampered stored PDF does not', async () => {
    const doc = await eventually(() => stored(id).then((d) => (d?.acceptance?.pdf ? d : undefined)), 60_000);
    const pdf = doc.acceptance?.pdf as { key: string; sha256: string };
    const ok = await orderCall(service, 'GET', `/estimate/${id}/agreement/verify`, staff);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({ matches: true, recordSha256: pdf.sha256, pdfSha256: pdf.sha256 });

    const original = Buffer.from(await (await pdfOf(id, staff)).arrayBuffer());
    // An incremental update appended: still a PDF, no longer the one signed.
    const tampered = Buffer.concat([original, Buffer.from('\n% edited\n')]);
    await service.ctx.agreementFiles.client.send(
      new PutObjectCommand({ Bucket: service.ctx.config.S3_BUCKET, Key: pdf.key, Body: tampered }),
    );
    const bad = await orderCall(service, 'GET', `/estimate/${id}/agreement/verify`, alice.token);
    expect(bad.body.result.matches).toBe(false);
    expect(bad.body.result.recordSha256).toBe(pdf.sha256);
    expect(bad.body.result.pdfSha256).not.toBe(pdf.sha256);
  });

  it('an edit of the accepted estimate voids the signature: SignatureVoided says what changed', async () => {
    const edited = await accepted();
    const put = await orderCall(service, 'PUT', `/estimate/${edited}`, staff, { room: 'Ballroom B' });
    expect(put.status).toBe(200);
    const voided = await eventually(
      async () => (await eventsOf(service, edited)).find((e) => e.type === 'SignatureVoided'),
      60_000,
    );
    expect(voided.payload).toMatchObject({ changed: expect.arrayContaining(['room']) });
  });

  it('404 (not ready) before it is made', async () => {
    const { id: open } = await submitted(service, alice);
    const res = await orderCall(service, 'GET', `/estimate/${open}/agreement/verify`, alice.token);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('The signed agreement is not ready yet');
  });
});
