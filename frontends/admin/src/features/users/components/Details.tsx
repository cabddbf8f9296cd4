import type { ReactNode } from 'react';

/** A record's fields as a description list (under its card's title; staff-typed values rendered as text). */
export function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '8px 24px', margin: 0 }}>
      {rows.map(([term, value]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt style={{ fontWeight: 600 }}>{term}</dt>
          <dd style={{ margin: 0 }}>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
