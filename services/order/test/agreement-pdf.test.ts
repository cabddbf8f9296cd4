/** The signed agreement's PDF (issue 30), pure: it opens, carries the record, and is reproducible. */
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { AcceptanceRecord } from '../src/domain/acceptance';
import { agreementPdf } from '../src/domain/agreement-pdf';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const record: AcceptanceRecord = {
  userId: 'u1',
  signerName: 'Zoë Ünïcode 😀',
  signatureSha256: 'a'.repeat(64),
  estimateVersion: 'b'.repeat(64),
  content: JSON.stringify({
    docNumber: '1001',
    lines: [['p1', 'Chiavari chair', 'white', 2, 500, 1000]],
    subtotalCents: 1000,
    truckingCents: 35000,
    taxCents: 0,
    totalCents: 36000,
    details: { eventDate: '2027-01-01' },
  }),
  agreementVersion: 1,
  agreementSha256: 'c'.repeat(64),
  ip: '203.0.113.9',
  userAgent: 'jest',
  at: new Date('2026-12-02T08:00:00Z'),
  idempotencyScope: 'u1:k',
};
const make = () =>
  agreementPdf({
    record,
    agreementText: 'The warranty period is ten days.\n\n'.repeat(120),
    signaturePng: PNG,
    companyName: 'Gala & Grove Event Rentals',
  });
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the signed agreement PDF', () => {
  it('opens as a PDF, wraps a long agreement onto more pages, and titles the estimate', async () => {
    const doc = await PDFDocument.load(await make());
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(doc.getTitle()).toBe('Rental agreement, estimate #1001');
    expect(doc.getCreationDate()?.toISOString()).toBe(record.at.toISOString());
  });

  it('the same record makes the same bytes (verify recomputes it), text outside WinAnsi included', async () => {
    const first = await make();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sha(await make())).toBe(sha(first));
  });
});
