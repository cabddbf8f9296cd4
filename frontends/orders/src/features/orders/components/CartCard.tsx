import { estimateTotals, lineTotalCents, toCents, toDollars } from '@decor/contracts/rules';
import { formatDollars } from '@decor/web-core';
import { Button, DeleteOutlined } from '@decor/web-core/ui';
import { Card, Table, type TableColumnsType } from '@decor/web-core/ui-data';
import { InputNumber } from '@decor/web-core/ui-forms';
import { TEXTS } from '../texts';
import type { Order, OrderLine } from '../types';
import { QuickAdd } from './QuickAdd';

/** A line while the order is edited: its product, quantity and the price the screen shows. */
export interface DraftLine {
  id: string;
  name: string;
  description: string;
  qty: number;
  price: number;
  /** Known for a product just picked from the catalogue (the quantity's upper bound). */
  stock?: number;
}

export const draftOf = (order: Order): DraftLine[] =>
  order.CartProducts.map(({ id, name, description, qty, price }) => ({ id, name, description, qty, price }));

/** Whether the draft's products or quantities differ from the order's lines. */
export const linesChanged = (order: Order, draft: readonly DraftLine[]) =>
  draft.length !== order.CartProducts.length ||
  draft.some((line, i) => line.id !== order.CartProducts[i]?.id || line.qty !== order.CartProducts[i]?.qty);

/**
 * The totals the order will have: the server's own rule (contracts' estimateTotals with the order's
 * trucking fee), so the preview equals what Update Order answers for these prices.
 */
function draftTotals(order: Order, draft: readonly DraftLine[]) {
  const subtotal = draft.reduce((sum, l) => sum + lineTotalCents(toCents(l.price), l.qty), 0);
  const t = estimateTotals(subtotal, toCents(order.truckingFee));
  return {
    subtotal: toDollars(t.subtotalCents),
    salesTax: toDollars(t.taxCents),
    total: toDollars(t.totalCents),
  };
}

type Row = OrderLine | (DraftLine & { total?: number });

/**
 * The order's lines and totals. While editing (`draft` set): each quantity can be changed and each
 * line removed (never the last one: an order keeps a line), and staff get the quick add.
 */
export function CartCard({
  order,
  draft,
  onDraft,
  quickAdd,
}: {
  order: Order;
  draft: DraftLine[] | null;
  onDraft: (lines: DraftLine[]) => void;
  quickAdd: boolean;
}) {
  const editing = draft !== null;
  const setQty = (id: string, qty: number) =>
    onDraft((draft ?? []).map((l) => (l.id === id ? { ...l, qty } : l)));
  const columns: TableColumnsType<Row> = [
    { key: 'name', title: 'Item', render: (_v, line) => line.name },
    { key: 'description', title: 'Description', render: (_v, line) => line.description },
    {
      key: 'qty',
      title: 'Qty',
      render: (_v, line) =>
        editing ? (
          <InputNumber
            aria-label={`Quantity of ${line.name}`}
            min={1}
            max={'stock' in line ? line.stock : undefined}
            precision={0}
            value={line.qty}
            onChange={(value: number | null) => setQty(line.id, typeof value === 'number' ? value : line.qty)}
          />
        ) : (
          line.qty
        ),
    },
    { key: 'price', title: 'Price', align: 'right', render: (_v, line) => formatDollars(line.price) },
    {
      key: 'total',
      title: 'Total',
      align: 'right',
      render: (_v, line) =>
        formatDollars(editing ? toDollars(lineTotalCents(toCents(line.price), line.qty)) : (line.total ?? 0)),
    },
    ...(editing
      ? [
          {
            key: 'remove',
            title: <span className="sr-only">Remove</span>,
            render: (_v: unknown, line: Row) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Remove ${line.name}`}
                disabled={(draft ?? []).length <= 1}
                onClick={() => onDraft((draft ?? []).filter((l) => l.id !== line.id))}
              />
            ),
          },
        ]
      : []),
  ];
  const shown = draft ? { ...order, ...draftTotals(order, draft) } : order;
  const totals: [string, number][] = [
    ['Subtotal', shown.subtotal],
    ['Trucking Fee', order.truckingFee],
    ['Sales Tax', shown.salesTax],
    ['Total', shown.total],
  ];
  return (
    <Card title={TEXTS.cart} aria-label={TEXTS.cart} role="region">
      {editing && quickAdd ? (
        <QuickAdd exclude={new Set(draft.map((l) => l.id))} onAdd={(line) => onDraft([...draft, line])} />
      ) : null}
      <Table<Row>
        rowKey="id"
        columns={columns}
        dataSource={draft ?? order.CartProducts}
        pagination={false}
        size="small"
        scroll={{ x: 'max-content' }}
      />
      <dl
        style={{ display: 'grid', gridTemplateColumns: 'auto auto', justifyContent: 'end', gap: '4px 24px' }}
      >
        {totals.map(([label, value]) => (
          <div
            key={label}
            style={{ display: 'contents' }}
            data-testid={`order-${label.toLowerCase().replace(' ', '-')}`}
          >
            <dt style={{ color: '#6b5d52' }}>{label}</dt>
            <dd style={{ margin: 0, textAlign: 'right', fontWeight: label === 'Total' ? 600 : 400 }}>
              {formatDollars(value)}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
