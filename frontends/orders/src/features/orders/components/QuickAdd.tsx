import { formatDollars, type Product, useDebounced } from '@decor/web-core';
import { Alert, Button, Flex, PlusOutlined } from '@decor/web-core/ui';
import { InputNumber, Select } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { useQuickAddProductsQuery } from '../api/orders-api';
import { TEXTS } from '../texts';
import type { DraftLine } from './CartCard';

/**
 * Staff's quick add in edit mode (spec §5): a search over the catalogue's products in stock
 * (Warehouse lines such as Labor too), a quantity from 1 to the stock, and Add. The price shown is
 * the catalogue's; the server prices the line itself when the order is updated.
 */
export function QuickAdd({
  onAdd,
  exclude,
}: {
  onAdd: (line: DraftLine) => void;
  exclude: ReadonlySet<string>;
}) {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const { data, isError, isFetching } = useQuickAddProductsQuery(search);
  const [picked, setPicked] = useState<Product | null>(null);
  const [qty, setQty] = useState(1);
  const products = (data ?? []).filter((p) => !exclude.has(p.id));
  const stock = picked?.quantity ?? 1;
  const add = () => {
    if (!picked) return;
    onAdd({
      id: picked.id,
      name: picked.name,
      description: picked.description,
      qty: Math.min(Math.max(1, qty), stock),
      price: picked.price ?? 0,
      stock,
    });
    setPicked(null);
    setQty(1);
  };
  return (
    <section aria-label={TEXTS.quickAdd} style={{ marginBottom: 12 }}>
      <Flex gap={8} wrap align="center">
        <strong>{TEXTS.quickAdd}</strong>
        <Select<string>
          aria-label={TEXTS.quickAddProduct}
          style={{ minWidth: 280, flex: 1 }}
          showSearch={{ filterOption: false, onSearch: setTyped }}
          value={picked?.id ?? null}
          loading={isFetching}
          notFoundContent={isFetching ? null : TEXTS.nothingFound}
          options={products.map((p) => ({
            value: p.id,
            label: `${p.name} (${p.id}) · ${formatDollars(p.price ?? 0)} · ${p.quantity ?? 0} in stock`,
          }))}
          onChange={(id) => {
            setPicked(products.find((p) => p.id === id) ?? null);
            setQty(1);
          }}
        />
        <InputNumber
          aria-label={TEXTS.quickAddQty}
          min={1}
          max={stock}
          precision={0}
          value={qty}
          disabled={!picked}
          onChange={(value: number | null) => setQty(typeof value === 'number' ? value : 1)}
        />
        <Button icon={<PlusOutlined aria-hidden />} disabled={!picked} onClick={add}>
          {TEXTS.add}
        </Button>
      </Flex>
      {isError ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginTop: 8 }}
          title={search === '' ? TEXTS.quickAddLoadError : TEXTS.quickAddSearchError}
        />
      ) : null}
    </section>
  );
}
