import {
  ACCEPTANCE_FILTER_MESSAGE,
  ACCEPTANCE_STATES,
  type AcceptanceState,
  type DepositOnVoid,
  EstimateView,
  InvoiceView,
  type OrderType,
  ShortLinesRefusal,
} from '@decor/contracts';
import {
  badRequest,
  forbidden,
  hasRole,
  type ListSpec,
  listQuerySchema,
  notFound,
  objectIdParam,
  type ServiceApp,
  sendList,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { OrderContext } from '../context';
import type { Command } from '../domain/decide';
import { ORDER_STATUSES, type OrderStatus, statusFromQuery } from '../domain/estimate';
import type { OrderRecord } from '../domain/view';
import { capturedDeposit, chooseOnVoid } from '../store/deposits';
import { type Estimate, orderRecord } from '../store/estimate-model';
import { acceptanceStateFilter } from '../store/offer-expiry';
import { ShortLinesError, shortLinesAnswer } from '../store/order-bookings';
import { changeOrder, listOrders, type OrderChangeOutcome, readOrder } from '../store/orders';
import { catalogueProducts } from '../store/products';
import {
  actorOf,
  editCommand,
  NOT_FOUND,
  OVERBOOK_STAFF_ONLY,
  refusalError,
  sendOrder,
  type UpdateBody,
  viewFor,
  visibleTo,
} from './order-answers';
import { ForeignId, ObjectIdText, UpdateEstimateBody, UpdateInvoiceBody } from './schemas';

const LIST_FILTERS = {
  status: Type.String({ minLength: 1, maxLength: 20 }),
  hasBeenModified: Type.Boolean(),
  UserId: ForeignId,
};

const LIST_COMMON = {
  orderFields: ['createdAt', 'updatedAt', 'eventDate', 'status'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['DocNumber'],
  paths: {
    DocNumber: 'docNumber',
    UserId: 'userId',
    EstimateId: 'estimateId',
    eventDate: 'details.eventDate',
  },
};

export const LIST_SPECS = {
  estimate: { ...LIST_COMMON, filters: LIST_FILTERS },
  invoice: { ...LIST_COMMON, filters: { ...LIST_FILTERS, EstimateId: ObjectIdText } },
} satisfies Record<OrderType, ListSpec>;

/**
 * Issue 30: estimates by where their online acceptance stands (the rows' `acceptance.state`). Not an
 * equality filter of the list spec: the state is computed from the estimate's facts and the clock
 * (store/offer-expiry.ts' acceptanceStateFilter), so it is only validated with the other parameters.
 */
const ACCEPTANCE_FILTER = Type.String({
  pattern: `^(${ACCEPTANCE_STATES.join('|')})$`,
  'x-message': ACCEPTANCE_FILTER_MESSAGE,
});

const querystringOf = (orderType: OrderType) => {
  const spec: ListSpec = LIST_SPECS[orderType];
  return listQuerySchema(
    orderType === 'estimate'
      ? { ...spec, filters: { ...spec.filters, acceptance: ACCEPTANCE_FILTER } }
      : spec,
  );
};

/** GET list, GET one and PUT of one document type (estimates and invoices share them). */
export async function orderReadAndUpdateRoutes(
  app: ServiceApp,
  ctx: OrderContext,
  orderType: OrderType,
): Promise<void> {
  const path = `/${orderType}`;
  const spec = LIST_SPECS[orderType];
  const View = orderType === 'invoice' ? InvoiceView : EstimateView;
  const UpdateBody = orderType === 'invoice' ? UpdateInvoiceBody : UpdateEstimateBody;
  const label = orderType === 'invoice' ? 'Invoices' : 'Estimates';

  app.get(
    path,
    {
      onRequest: app.authenticate,
      schema: {
        summary: `${label}: a customer's own, or everyone's for staff (optional UserId); newest first`,
        description:
          'Filters: status (any case), hasBeenModified, UserId (staff), like=DocNumber:<prefix>' +
          (orderType === 'invoice'
            ? ', EstimateId'
            : `, acceptance=<${ACCEPTANCE_STATES.join('|')}> (where online acceptance stands, as each row's ` +
              "acceptance.state shows it; rows without one count as 'not-offered')") +
          '; limit (20, max 100), offset, order=<createdAt|updatedAt|eventDate|status>:<ASC|DESC>; the total in total_count. ' +
          "Each row has the caller's actions.",
        security: [{ session: [] }],
        querystring: querystringOf(orderType),
        response: { 200: Type.Object({ result: Type.Array(View) }) },
      },
    },
    async (request, reply) => {
      const query = { ...(request.query as Record<string, unknown>) };
      if (query.status !== undefined) {
        const status: OrderStatus | undefined = statusFromQuery(String(query.status));
        if (!status) throw badRequest(`status must be one of: ${ORDER_STATUSES.join(', ')}`);
        query.status = status;
      }
      if (!hasRole(request.user, 'staff')) {
        // A customer sees only their own orders; asking for someone else's finds nothing.
        if (query.UserId !== undefined && query.UserId !== request.user.id) return sendList(reply, [], 0);
        query.UserId = request.user.id;
      }
      const acceptance = query.acceptance as AcceptanceState | undefined;
      delete query.acceptance;
      const { items, total } = await listOrders(
        ctx,
        orderType,
        query,
        spec as ListSpec,
        acceptance ? acceptanceStateFilter(acceptance, new Date()) : undefined,
      );
      const actor = actorOf(request.user);
      const today = ctx.today();
      return sendList(
        reply,
        (items as Estimate[]).map((doc) => viewFor(orderRecord(doc, orderType), actor, today)),
        total,
      );
    },
  );

  app.get(
    `${path}/:id`,
    {
      onRequest: app.authenticate,
      schema: {
        summary: `One ${orderType} (customers: their own); header can-be-modified says whether the caller may edit it`,
        security: [{ session: [] }],
        params: objectIdParam,
        response: { 200: Type.Object({ result: View }) },
      },
    },
    async (request, reply) => {
      const order = await readOrder(ctx, orderType, request.params.id);
      if (!order || !visibleTo(request.user)(order)) throw notFound(NOT_FOUND[orderType]);
      return sendOrder(reply, order, actorOf(request.user), ctx.today());
    },
  );

  app.put(
    `${path}/:id`,
    {
      onRequest: app.authenticate,
      schema: {
        summary:
          orderType === 'invoice'
            ? "Edit an invoice's event and will-call fields and lines (CartProducts), or { status: 'Voided' } cancels, { status: 'Completed' } completes (staff)"
            : "Edit an estimate's event and will-call fields and lines (CartProducts), or { status: 'Voided' } cancels",
        description:
          'Editing sets hasBeenModified and publishes ' +
          (orderType === 'invoice' ? 'InvoiceUpdated' : 'EstimateUpdated') +
          '; a status change publishes ' +
          (orderType === 'invoice'
            ? 'InvoiceStatusChanged (and InvoiceCompleted)'
            : 'EstimateStatusChanged') +
          '. Lines: products and quantities only, priced from the catalogue, 1..stock; only staff add products; at least one line (400)' +
          ". Refusals: 409 with the spec's sentence (terminal, within 3 days for customers, …), 403 staff-only.",
        security: [{ session: [] }],
        params: objectIdParam,
        body: UpdateBody,
        response: { 200: Type.Object({ result: View }), 409: ShortLinesRefusal },
      },
    },
    async (request, reply) => {
      const body = request.body as UpdateBody;
      const actor = actorOf(request.user);
      const { status, overbook, depositAction, ...fields } = body as UpdateBody & {
        depositAction?: DepositOnVoid;
      };
      if (overbook && actor.role !== 'staff') throw forbidden(OVERBOOK_STAFF_ONLY);
      if (status !== undefined && Object.keys(fields).length > 0)
        throw badRequest('status cannot be changed together with other fields');
      if (depositAction !== undefined && status !== 'Voided')
        throw badRequest("depositAction goes with { status: 'Voided' }");
      if (orderType === 'invoice' && status === 'Voided')
        await settleDepositChoice(ctx, request.params.id, depositAction, visibleTo(request.user));
      const products = await catalogueProducts(ctx, body.CartProducts);
      const command = (order: OrderRecord): Command =>
        status === 'Voided'
          ? { action: 'cancel' }
          : status === 'Completed'
            ? { action: 'complete' }
            : editCommand(order, body, products, actor.role === 'staff');
      let outcome: OrderChangeOutcome;
      try {
        outcome = await changeOrder(
          ctx,
          orderType,
          request.params.id,
          command,
          actor,
          request.id,
          visibleTo(request.user),
          overbook ? { overbook: { by: request.user.email } } : {},
        );
      } catch (err) {
        if (err instanceof ShortLinesError) return reply.code(409).send(shortLinesAnswer(err));
        throw err;
      }
      if (!outcome.order || !outcome.decision) throw notFound(NOT_FOUND[orderType]);
      if (!outcome.decision.ok) throw refusalError(outcome.decision.code, outcome.order.status);
      // accounting-sync and the notification service act on these events; the client reads next.
      if (outcome.published) await ctx.eventsPublished();
      return sendOrder(reply, outcome.order, actor, ctx.today());
    },
  );
}

/**
 * Voiding an invoice whose accepted estimate's deposit was taken: staff say whether it is refunded or
 * kept (issue 30). The choice is stored first; the refund follows the void (events/acceptance.ts).
 */
async function settleDepositChoice(
  ctx: OrderContext,
  invoiceId: string,
  action: DepositOnVoid | undefined,
  visible: (order: OrderRecord) => boolean,
): Promise<void> {
  const invoice = await readOrder(ctx, 'invoice', invoiceId);
  if (!invoice || !visible(invoice) || !invoice.estimateId) return;
  if (!(await capturedDeposit(ctx, invoice.estimateId))) return;
  if (!action)
    throw badRequest(
      "This invoice's deposit was taken: say whether it is refunded or kept (depositAction 'refund' or 'keep')",
    );
  await chooseOnVoid(ctx, invoice.estimateId, action);
}
