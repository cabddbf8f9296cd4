import { Alert } from '@decor/web-core/ui';

/** What a modal form says after its last submit: nothing yet, or one line of outcome. */
export type FormStatusValue = { kind: 'idle' } | { kind: 'success' | 'error' | 'info'; text: string };

/** The outcome above a form's submit button; an error is announced at once (role alert). */
export function FormStatus({ status }: { status: FormStatusValue }) {
  if (status.kind === 'idle') return null;
  return (
    <Alert
      type={status.kind}
      title={status.text}
      showIcon
      style={{ marginBottom: 16 }}
      role={status.kind === 'error' ? 'alert' : 'status'}
    />
  );
}
