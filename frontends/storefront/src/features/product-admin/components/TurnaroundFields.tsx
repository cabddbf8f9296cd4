import { DEFAULT_TURNAROUND } from '@decor/contracts/rules';
import { Alert, Button, Flex } from '@decor/web-core/ui';
import { Form, InputNumber } from '@decor/web-core/ui-forms';
import { type KeyboardEvent, useId, useState } from 'react';
import {
  type CategoryTurnaround,
  useGetCategoryTurnaroundQuery,
  useSetCategoryTurnaroundMutation,
} from '../api/product-admin-api';
import { failureText, PRODUCT_ADMIN_TEXTS as T } from '../texts';

type Side = 'before' | 'after';

const row = { display: 'grid', gap: '0 16px', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))' };
/**
 * No min or max here: antd keeps an out-of-range number it is typing out of the value, so Enter would
 * save another number than the one shown. The server's message names the range (0 to 30) instead.
 */
const days = { step: 1, precision: 0, style: { width: '100%' } };

/** What a side inherits when the product leaves it empty: its category's, else the shop's. */
function inherited(category: CategoryTurnaround | undefined, side: Side): string {
  const own = category?.[side];
  return own === null || own === undefined ? T.shopDefault(DEFAULT_TURNAROUND[side]) : T.categoryDefault(own);
}

/**
 * The product form's Turnaround section (issue 15): the product's own days before and after a
 * booking (empty inherits; the placeholder says what), and its category's own buffer, saved apart.
 */
export function TurnaroundFields({
  category,
  disabled,
}: {
  category: { id: string; name: string } | undefined;
  disabled: boolean;
}) {
  const { data } = useGetCategoryTurnaroundQuery(category?.id ?? '', { skip: !category });
  const shown = category && data?.Id === category.id ? data : undefined;
  return (
    <fieldset style={{ border: 0, margin: '0 0 16px', padding: 0 }}>
      <legend style={{ fontWeight: 600, marginBottom: 4 }}>{T.turnaround}</legend>
      <p style={{ margin: '0 0 8px' }}>{T.turnaroundHelp}</p>
      <div style={row}>
        <Form.Item name="turnaroundBefore" label={T.daysBefore}>
          <InputNumber {...days} placeholder={inherited(shown, 'before')} />
        </Form.Item>
        <Form.Item name="turnaroundAfter" label={T.daysAfter}>
          <InputNumber {...days} placeholder={inherited(shown, 'after')} />
        </Form.Item>
      </div>
      {category ? (
        <CategoryTurnaroundEditor key={category.id} category={category} disabled={disabled} />
      ) : null}
    </fieldset>
  );
}

function CategoryTurnaroundEditor({
  category,
  disabled,
}: {
  category: { id: string; name: string };
  disabled: boolean;
}) {
  const { data, isError, isLoading } = useGetCategoryTurnaroundQuery(category.id);
  const [save, saving] = useSetCategoryTurnaroundMutation();
  /** What staff typed since the last load or save; null shows the stored buffer. */
  const [draft, setDraft] = useState<Record<Side, number | null> | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const values = draft ?? { before: data?.before ?? null, after: data?.after ?? null };

  const change = (side: Side, value: number | null) => {
    setOutcome(null);
    setDraft({ ...values, [side]: value });
  };
  const submit = async () => {
    setOutcome(null);
    try {
      await save({ id: category.id, ...values }).unwrap();
      setDraft(null);
      setOutcome({ ok: true, text: T.categoryTurnaroundSaved });
    } catch (failure) {
      setOutcome({ ok: false, text: failureText(failure) });
    }
  };
  // Enter here saves the category, never the product form around it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void submit();
  };
  const off = disabled || isLoading || saving.isLoading;
  const id = useId();

  return (
    <Flex vertical gap={8} onKeyDown={onKeyDown}>
      <p style={{ margin: 0 }}>{T.categoryTurnaroundHelp(category.name)}</p>
      {isError ? <Alert type="error" showIcon title={T.categoryTurnaroundError} /> : null}
      <div style={{ ...row, alignItems: 'end' }}>
        {(['before', 'after'] as const).map((side) => {
          const label =
            side === 'before' ? T.categoryDaysBefore(category.name) : T.categoryDaysAfter(category.name);
          return (
            <Flex key={side} vertical gap={4}>
              <label htmlFor={`${id}-${side}`}>{label}</label>
              <InputNumber
                id={`${id}-${side}`}
                {...days}
                value={values[side]}
                disabled={off}
                placeholder={T.shopDefault(DEFAULT_TURNAROUND[side])}
                onChange={(value) => change(side, typeof value === 'number' ? value : null)}
              />
            </Flex>
          );
        })}
        <Button disabled={off || isError} loading={saving.isLoading} onClick={() => void submit()}>
          {T.saveCategoryTurnaround}
        </Button>
      </div>
      {outcome ? <Alert type={outcome.ok ? 'success' : 'error'} showIcon title={outcome.text} /> : null}
    </Flex>
  );
}
