import { useAppSelector } from '@decor/web-core';
import { Button } from '@decor/web-core/ui';
import { Checkbox } from '@decor/web-core/ui-data';
import { Form, Input, Select } from '@decor/web-core/ui-forms';
import type { CategoryInput } from '../api/product-admin-api';
import { PRODUCT_ADMIN_TEXTS as T } from '../texts';

interface Values {
  name?: string;
  isSubCategory?: boolean;
  parent?: string;
}

/**
 * The category form (spec orders §3 "New category", §5): name required; a subcategory also needs
 * its parent category. Enter submits; the first invalid field is focused.
 */
export function CategoryForm({
  submitting,
  onSubmit,
}: {
  submitting: boolean;
  onSubmit: (values: CategoryInput) => void;
}) {
  const [form] = Form.useForm<Values>();
  const categories = useAppSelector((s) => s.sideNav.categories);
  const isSub = Form.useWatch('isSubCategory', form) === true;
  return (
    <Form<Values>
      form={form}
      name="category-create"
      layout="vertical"
      requiredMark={false}
      initialValues={{ isSubCategory: false }}
      disabled={submitting}
      onFinish={(values) =>
        onSubmit({
          name: (values.name ?? '').trim(),
          isSubCategory: values.isSubCategory === true,
          ...(values.isSubCategory && values.parent ? { parent: values.parent } : {}),
        })
      }
      onFinishFailed={({ errorFields }) => {
        const first = errorFields[0];
        if (first) form.focusField(first.name);
      }}
    >
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: T.required }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="isSubCategory" valuePropName="checked">
        <Checkbox>Subcategory</Checkbox>
      </Form.Item>
      {isSub ? (
        <Form.Item name="parent" label="Parent category" rules={[{ required: true, message: T.required }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={categories.map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
      ) : null}
      <Button type="primary" htmlType="submit" loading={submitting}>
        Save Category
      </Button>
    </Form>
  );
}
