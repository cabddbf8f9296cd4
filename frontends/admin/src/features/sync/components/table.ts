/** Spec orders §9 table defaults: 10 per page, options 10, 20, 50, 100 (no pager for a single page). */
export const TABLE_PAGINATION = {
  defaultPageSize: 10,
  pageSizeOptions: [10, 20, 50, 100],
  hideOnSinglePage: true,
};
