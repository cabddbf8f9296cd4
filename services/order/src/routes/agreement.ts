import { AgreementVerification } from '@decor/contracts';
import { notFound, objectIdParam, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { OrderContext } from '../context';
import type { AcceptanceRecord } from '../domain/acceptance';
import { agreementOfRecord, sha256 } from '../jobs/agreement-jobs';
import { readEstimateWithAcceptance } from '../store/acceptance';
import { NOT_FOUND, visibleTo } from './order-answers';

const NOT_READY = 'The signed agreement is not ready yet';

/** Issue 30: an accepted estimate's signed agreement (its customer or staff), and its check. */
export async function agreementRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  /** The acceptance and its made PDF, for its customer or staff; 404 otherwise. */
  const signed = async (id: string, user: Parameters<typeof visibleTo>[0]) => {
    const loaded = await readEstimateWithAcceptance(ctx, id);
    if (!loaded || !visibleTo(user)(loaded.order)) throw notFound(NOT_FOUND.estimate);
    const record = loaded.facts.acceptance as AcceptanceRecord | null;
    if (!record?.pdf) throw notFound(NOT_READY);
    return { record, pdf: record.pdf };
  };

  app.get(
    '/estimate/:id/agreement.pdf',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "An accepted estimate's signed agreement, as a PDF (its customer or staff)",
        description:
          "404 until the agreement is made (a job, seconds after the acceptance) and for others' estimates.",
        security: [{ session: [] }],
        params: objectIdParam,
        produces: ['application/pdf'],
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
      },
    },
    async (request, reply) => {
      const { pdf } = await signed(request.params.id, request.user);
      const bytes = await ctx.agreementFiles.get(pdf.key);
      if (!bytes) throw notFound(NOT_READY);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="agreement-${request.params.id}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  app.get(
    '/estimate/:id/agreement/verify',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Whether the stored signed agreement is the one its acceptance record makes',
        description:
          'recordSha256 is recomputed from the stored record (the same record makes the same PDF); ' +
          'pdfSha256 is that of the PDF stored now (null when it is missing). matches: both equal the ' +
          'SHA-256 recorded when it was made.',
        security: [{ session: [] }],
        params: objectIdParam,
        response: { 200: Type.Object({ result: AgreementVerification }) },
      },
    },
    async (request) => {
      const { record, pdf } = await signed(request.params.id, request.user);
      const recordSha256 = sha256(await agreementOfRecord(ctx, record));
      const stored = await ctx.agreementFiles.get(pdf.key);
      const pdfSha256 = stored ? sha256(stored) : null;
      const matches = recordSha256 === pdf.sha256 && pdfSha256 === pdf.sha256;
      return { result: { matches, recordSha256, pdfSha256 } };
    },
  );
}
