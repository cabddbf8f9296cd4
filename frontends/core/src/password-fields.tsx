import { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from '@decor/contracts/rules';
import { Form, Input } from 'antd';

/**
 * The Password and Confirm Password fields of the profile and reset forms (spec §5): both required,
 * at least 3 characters, and equal — compared trimmed on the profile, as typed on the reset form;
 * each form words the mismatch its own way.
 */
export function PasswordFields({ mismatch, trimmed = false }: { mismatch: string; trimmed?: boolean }) {
  const same = (a: string, b: string) => (trimmed ? a.trim() === b.trim() : a === b);
  return (
    <>
      <Form.Item
        label="Password"
        name="password"
        rules={[{ required: true }, { min: PASSWORD_MIN_LENGTH, message: PASSWORD_TOO_SHORT }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm Password"
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true },
          { min: PASSWORD_MIN_LENGTH, message: PASSWORD_TOO_SHORT },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || same(value, String(getFieldValue('password') ?? ''))
                ? Promise.resolve()
                : Promise.reject(new Error(mismatch)),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
