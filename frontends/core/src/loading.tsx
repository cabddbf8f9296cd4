import { Spin, type SpinProps } from 'antd';

/**
 * Passed through to Spin's root element (antd spreads props it does not know onto it; SpinProps does
 * not list HTML attributes).
 */
const STATUS = { role: 'status' } as const;

/**
 * A spinner that says what is loading: a status named `label`. Spin alone is a plain div, on which an
 * aria-label is not allowed (axe's aria-prohibited-attr, seen on a loading order list).
 */
export function Loading({ label, ...spin }: Pick<SpinProps, 'size' | 'style'> & { label: string }) {
  return <Spin {...STATUS} aria-label={label} {...spin} />;
}
