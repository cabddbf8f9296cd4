import { toCents, toDollars } from '@decor/contracts';
import { notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { truckingFee } from '../store/reads';
import { setTruckingFee } from '../store/writes';
import { NoQuery, TruckingView } from './schemas';

const TRUCKING_NOT_FOUND = 'Trucking fee not found';

const IdParam = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', 'x-message': 'Invalid {field}' }) },
  { additionalProperties: false },
);

export async function truckingRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  app.get(
    '/trucking',
    {
      preHandler: app.requireRole('staff'),
      schema: {
        summary: 'The trucking fee added to every estimate (staff only)',
        security: [{ session: [] }],
        querystring: NoQuery,
        response: { 200: Type.Object({ result: TruckingView }) },
      },
    },
    async () => {
      const fee = await truckingFee(ctx);
      if (!fee) throw notFound(TRUCKING_NOT_FOUND);
      return { result: { id: fee._id, value: toDollars(fee.valueCents) } };
    },
  );

  app.put(
    '/trucking/:id',
    {
      preHandler: app.requireRole('staff'),
      schema: {
        summary: 'Change the trucking fee (staff only); publishes TruckingFeeChanged',
        security: [{ session: [] }],
        params: IdParam,
        body: Type.Object(
          {
            value: Type.Number({
              minimum: 0,
              maximum: 1_000_000,
              description: 'Dollars; rounded to the cent',
              'x-message': 'must be a number from 0 to 1000000',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ result: TruckingView }) },
      },
    },
    async (request) => {
      const fee = await setTruckingFee(ctx, request.params.id, toCents(request.body.value), request.id);
      if (!fee) throw notFound(TRUCKING_NOT_FOUND);
      return { result: { id: fee._id, value: toDollars(fee.valueCents) } };
    },
  );
}
