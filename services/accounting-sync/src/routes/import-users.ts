import { QboImportPageView } from '@decor/contracts';
import type { ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { importListing, type QboCustomerRow } from '../domain/import-listing';
import { searchImportListing } from '../domain/import-search';
import { siteRecords } from '../store/record-reads';
import { liveRead } from './live-read';
import { qboSessionExpired } from './texts';

const Query = Type.Object(
  {
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'words (case and accents ignored) each found in a name, company name or e-mail of the entry',
      }),
    ),
    hideOnSite: Type.Optional(
      Type.Boolean({ default: false, description: 'leave out what is already on the site' }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'none: every matching entry' }),
    ),
    refresh: Type.Optional(
      Type.Boolean({ default: false, description: 'read QuickBooks now instead of the recent copy' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * `GET /qbo/users`, the Import User dialog's listing (spec §2, §5, §7): QuickBooks' Customers with the
 * import rules applied, searched and paged here, from a copy of QuickBooks' list at most a few minutes
 * old (`ctx.customers`); which of them are on the site is read fresh on every call.
 */
export async function importUsersRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  app.get(
    '/qbo/users',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          "QuickBooks' customers for the import: companies (top level) and customers (jobs under a company), " +
          'marked when already on the site, with the import rules applied (selectable, reason)',
        description:
          'Companies first, then customers, each in display-name order, as one sequence cut by `offset` and ' +
          '`limit` (the matching total in the `total_count` header). QuickBooks is read at most every 2 minutes ' +
          "(sooner after this service writes a Customer, or with `refresh=true`); `listedAt` is that read's time.",
        security: [{ session: [] }],
        querystring: Query,
        response: {
          200: Type.Object({ result: QboImportPageView }),
        },
      },
    },
    async (request, reply) => {
      const { refresh, ...query } = request.query;
      // A lost connection is said at once, never hidden behind the copy in memory.
      const { connected, realmId } = await ctx.sessions.status();
      if (!connected || !realmId) throw qboSessionExpired();
      const { rows, readAt } = await liveRead(() => ctx.customers.read(realmId, { refresh }));
      const page = searchImportListing(
        importListing(rows as QboCustomerRow[], await siteRecords(ctx, rows)),
        query,
      );
      reply.header('total_count', String(page.total));
      return {
        result: { companies: page.companies, customers: page.customers, listedAt: readAt.toISOString() },
      };
    },
  );
}
