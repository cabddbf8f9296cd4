/**
 * The users and companies calls (spec orders §7 Users, Companies, Welcome e-mail, GET /qbo/users),
 * joined onto the shared RTK Query api of @decor/web-core (one cache, one axios client, the shell's
 * store). Lists are 20 at a time (spec §9), more on scroll.
 */
import type { CompanyChanges, NewCompany } from '@decor/contracts/rules';
import { api, type Page } from '@decor/web-core';
import type {
  Company,
  NewUser,
  QboUsers,
  QboUsersArgs,
  QboUsersPage,
  SiteUser,
  UserChanges,
  UserListArgs,
} from './types';

export const USERS_PAGE_SIZE = 20;

const enc = encodeURIComponent;

/**
 * GET /user parameters: a tab's people (the Admins tab holds superadmins too), in company order,
 * searched by a prefix of `searchField`.
 */
export function userListParams(
  args: UserListArgs,
  offset: number,
): Record<string, string | number | string[]> {
  const params: Record<string, string | number | string[]> = {
    limit: USERS_PAGE_SIZE,
    offset,
    order: 'ownCompany:ASC',
    permissions: args.kind === 'admin' ? ['admin', 'superadmin'] : 'customer',
  };
  const search = args.search.trim();
  if (search) params.like = `${args.searchField}:${search}`;
  if (args.companyId) params.CompanyId = args.companyId;
  return params;
}

/** GET /company parameters: by name prefix, in display-name order. */
export function companyListParams(search: string, offset: number): Record<string, string | number> {
  const params: Record<string, string | number> = {
    limit: USERS_PAGE_SIZE,
    offset,
    order: 'displayName:ASC',
  };
  const prefix = search.trim();
  if (prefix) params.like = `name:${prefix}`;
  return params;
}

/** GET /qbo/users parameters: a page of 20 of what matches the search. */
export function qboUsersParams(args: QboUsersArgs): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {
    hideOnSite: args.hideOnSite,
    offset: args.offset,
    limit: USERS_PAGE_SIZE,
  };
  const search = args.search.trim();
  if (search) params.search = search;
  return params;
}

// Function declarations: the remote's build parses .ts as TSX, where `<T>(…) =>` is a JSX tag.
function nextOffset<T>(lastPage: Page<T>, allPages: Page<T>[], lastOffset: number): number | undefined {
  const loaded = allPages.reduce((n, page) => n + page.items.length, 0);
  return loaded < lastPage.total && lastPage.items.length > 0 ? lastOffset + USERS_PAGE_SIZE : undefined;
}

function pageOf<T>(answer: { result: T[] }, meta: { totalCount?: number } | undefined): Page<T> {
  return { items: answer.result, total: meta?.totalCount ?? answer.result.length };
}

/** A single record may come as the object or as a one-element list. */
function single<T>(answer: { result: T | T[] }): T {
  return (Array.isArray(answer.result) ? answer.result[0] : answer.result) as T;
}

const withTags = api.enhanceEndpoints({
  addTagTypes: ['SiteUser', 'SiteUserList', 'Company', 'CompanyList', 'QboUsers'],
});

export const usersApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.infiniteQuery<Page<SiteUser>, UserListArgs, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg, pageParam }) => ({ url: '/user', params: userListParams(queryArg, pageParam) }),
      transformResponse: pageOf<SiteUser>,
      providesTags: [{ type: 'SiteUserList', id: 'LIST' }],
    }),
    listCompanies: build.infiniteQuery<Page<Company>, string, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg, pageParam }) => ({
        url: '/company',
        params: companyListParams(queryArg, pageParam),
      }),
      transformResponse: pageOf<Company>,
      providesTags: [{ type: 'CompanyList', id: 'LIST' }],
    }),
    /** The parent-company picker: the first companies whose name starts with what was typed. */
    findCompanies: build.query<Company[], string>({
      query: (search) => ({ url: '/company', params: companyListParams(search, 0) }),
      transformResponse: (answer: { result: Company[] }) => answer.result,
      providesTags: [{ type: 'CompanyList', id: 'LIST' }],
    }),
    getUser: build.query<SiteUser, string>({
      query: (id) => ({ url: `/user/${enc(id)}` }),
      transformResponse: single<SiteUser>,
      providesTags: (_u, _e, id) => [{ type: 'SiteUser', id }],
    }),
    getCompany: build.query<Company, string>({
      query: (id) => ({ url: `/company/${enc(id)}` }),
      transformResponse: single<Company>,
      providesTags: (_c, _e, id) => [{ type: 'Company', id }],
    }),
    createUser: build.mutation<SiteUser, NewUser>({
      query: (body) => ({ url: '/user', method: 'POST', data: body }),
      transformResponse: single<SiteUser>,
      invalidatesTags: [{ type: 'SiteUserList', id: 'LIST' }],
    }),
    createCompany: build.mutation<Company, NewCompany>({
      query: (body) => ({ url: '/company', method: 'POST', data: body }),
      transformResponse: single<Company>,
      invalidatesTags: [{ type: 'CompanyList', id: 'LIST' }],
    }),
    updateUser: build.mutation<SiteUser, { id: string; changes: UserChanges }>({
      query: ({ id, changes }) => ({ url: `/user/${enc(id)}`, method: 'PUT', data: changes }),
      transformResponse: single<SiteUser>,
      invalidatesTags: (_u, _e, { id }) => [
        { type: 'SiteUser', id },
        { type: 'SiteUserList', id: 'LIST' },
      ],
    }),
    updateCompany: build.mutation<Company, { id: string; changes: CompanyChanges }>({
      query: ({ id, changes }) => ({ url: `/company/${enc(id)}`, method: 'PUT', data: changes }),
      transformResponse: single<Company>,
      invalidatesTags: (_c, _e, { id }) => [
        { type: 'Company', id },
        { type: 'CompanyList', id: 'LIST' },
        // A customer's page shows its parent company's address.
        'SiteUser',
      ],
    }),
    deleteUser: build.mutation<unknown, string>({
      query: (id) => ({ url: `/user/${enc(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'SiteUser', id },
        { type: 'SiteUserList', id: 'LIST' },
      ],
    }),
    /** POST /send/welcomeEmail: the server's words on success (else null). */
    deleteCompany: build.mutation<unknown, string>({
      query: (id) => ({ url: `/company/${enc(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'Company', id },
        { type: 'CompanyList', id: 'LIST' },
      ],
    }),
    sendWelcomeEmail: build.mutation<string | null, string>({
      query: (email) => ({ url: '/send/welcomeEmail', method: 'POST', data: { email } }),
      transformResponse: (answer: { result?: { message?: unknown } }) =>
        typeof answer?.result?.message === 'string' ? answer.result.message : null,
    }),
    /** GET /qbo/users: a page of the import dialog, asked again each time the dialog opens. */
    getQboUsers: build.query<QboUsersPage, QboUsersArgs>({
      query: (args) => ({ url: '/qbo/users', params: qboUsersParams(args) }),
      transformResponse: (answer: { result: QboUsers & { listedAt?: string } }, meta) => ({
        companies: answer.result.companies,
        customers: answer.result.customers,
        listedAt: answer.result.listedAt ?? null,
        total: meta?.totalCount ?? answer.result.companies.length + answer.result.customers.length,
      }),
      providesTags: ['QboUsers'],
      keepUnusedDataFor: 0,
    }),
    /** The dialog's Refresh: the server reads QuickBooks now; the page shown is then asked again. */
    refreshQboUsers: build.mutation<unknown, void>({
      query: () => ({ url: '/qbo/users', params: { refresh: true, limit: 1 } }),
      invalidatesTags: ['QboUsers'],
    }),
  }),
});

export const {
  useListUsersInfiniteQuery,
  useListCompaniesInfiniteQuery,
  useFindCompaniesQuery,
  useGetUserQuery,
  useGetCompanyQuery,
  useCreateUserMutation,
  useCreateCompanyMutation,
  useUpdateUserMutation,
  useUpdateCompanyMutation,
  useDeleteUserMutation,
  useDeleteCompanyMutation,
  useSendWelcomeEmailMutation,
  useGetQboUsersQuery,
  useRefreshQboUsersMutation,
} = usersApi;
