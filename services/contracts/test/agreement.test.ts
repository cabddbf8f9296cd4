import { Value } from '@sinclair/typebox/value';
import { AgreementVerification } from '../src/acceptance-schemas';
import { AgreementSigned } from '../src/order-events';

describe('the signed agreement (issue 30)', () => {
  it('AgreementSigned names the estimate, the stored PDF and its SHA-256, on the order topic', () => {
    expect(Object.keys(AgreementSigned.payload.properties)).toEqual(
      expect.arrayContaining([
        'order',
        'estimateId',
        'docNumber',
        'signerName',
        'acceptedAt',
        'pdfKey',
        'sha256',
      ]),
    );
    expect(AgreementSigned.aggregateType).toBe('order');
  });

  it("verify's answer: matches, the recomputed and the stored PDF's SHA-256 (null when missing)", () => {
    const sha = 'a'.repeat(64);
    expect(Value.Check(AgreementVerification, { matches: true, recordSha256: sha, pdfSha256: sha })).toBe(
      true,
    );
    expect(Value.Check(AgreementVerification, { matches: false, recordSha256: sha, pdfSha256: null })).toBe(
      true,
    );
    expect(Value.Check(AgreementVerification, { matches: true, recordSha256: sha })).toBe(false);
  });
});
