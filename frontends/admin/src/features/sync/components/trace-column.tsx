/** The Trace column of the sync page's failure tables: the id to search in the trace viewer. */
export const traceColumn = {
  title: 'Trace',
  dataIndex: 'traceId',
  render: (id: string | null) => (id ? <code>{id}</code> : '—'),
};
