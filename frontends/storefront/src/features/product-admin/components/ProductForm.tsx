import { useAppSelector } from '@decor/web-core';
import { Button } from '@decor/web-core/ui';
import { Form, Input, InputNumber, Select } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import type { ProductInput } from '../api/product-admin-api';
import { newProductImagesProblem } from '../image-rules';
import { PRODUCT_ADMIN_TEXTS as T } from '../texts';
import { ImagePicker, UploadProgress } from './ImagePicker';
import { TurnaroundFields } from './TurnaroundFields';

type Values = Partial<ProductInput>;

const required = [{ required: true, whitespace: true, message: T.required }];
const requiredNumber = [{ required: true, type: 'number' as const, message: T.required }];

/**
 * The product form (spec orders §3 "New product", §5): name, SKU, category, subcategory, price,
 * quantity and description required; price and quantity numbers; the subcategory options are those of
 * the chosen category, and changing the category clears the subcategory. A new product also takes
 * its images (at most 5, each under 100 KB). Enter submits; the first invalid field is focused.
 * Issue 15 adds the turnaround days (TurnaroundFields), the product's own and its category's.
 */
export function ProductForm({
  mode,
  initial,
  submitting,
  uploadPercent,
  onSubmit,
}: {
  mode: 'create' | 'edit';
  initial: Values;
  submitting: boolean;
  uploadPercent?: number | null;
  onSubmit: (values: ProductInput, files: File[]) => void;
}) {
  const [form] = Form.useForm<Values>();
  const categories = useAppSelector((s) => s.sideNav.categories);
  const category = Form.useWatch('category', form) ?? initial.category;
  const chosen = categories.find((c) => c.name === category);
  const subcategories = chosen?.subcategories ?? [];
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);

  const finish = (values: Values) => {
    onSubmit(
      {
        id: (values.id ?? initial.id ?? '').trim(),
        name: (values.name ?? '').trim(),
        description: (values.description ?? '').trim(),
        category: values.category ?? '',
        subcategory: values.subcategory ?? '',
        price: Number(values.price),
        quantity: Number(values.quantity),
        // Empty inherits the category's buffer (null); the server checks whole days 0 to 30.
        turnaroundBefore: values.turnaroundBefore ?? null,
        turnaroundAfter: values.turnaroundAfter ?? null,
      },
      files,
    );
  };

  return (
    <Form<Values>
      form={form}
      name={`product-${mode}`}
      layout="vertical"
      initialValues={initial}
      requiredMark={false}
      onFinish={finish}
      onFinishFailed={({ errorFields }) => {
        const first = errorFields[0];
        if (first) form.focusField(first.name);
      }}
      onValuesChange={(changed: Values) => {
        if ('category' in changed) form.setFieldValue('subcategory', undefined);
      }}
      disabled={submitting}
    >
      <Form.Item name="name" label="Name" rules={required}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="id" label="SKU" rules={mode === 'create' ? required : []}>
        <Input maxLength={64} disabled={mode === 'edit'} />
      </Form.Item>
      <div
        style={{
          display: 'grid',
          gap: '0 16px',
          gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
        }}
      >
        <Form.Item name="category" label="Category" rules={required}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={categories.map((c) => ({ value: c.name, label: c.name }))}
            notFoundContent={null}
          />
        </Form.Item>
        <Form.Item name="subcategory" label="Subcategory" rules={required}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={subcategories.map((s) => ({ value: s.name, label: s.name }))}
            notFoundContent={null}
          />
        </Form.Item>
        <Form.Item name="price" label="Price" rules={requiredNumber}>
          <InputNumber min={0} step={0.01} precision={2} prefix="$" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="quantity" label="Quantity" rules={requiredNumber}>
          <InputNumber min={0} step={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </div>
      <Form.Item name="description" label="Description" rules={required}>
        <Input.TextArea rows={4} maxLength={5000} />
      </Form.Item>
      <TurnaroundFields category={chosen} disabled={submitting} />
      {mode === 'create' ? (
        <ImagePicker
          label={T.newImages}
          disabled={submitting}
          chosen={files}
          error={fileError}
          check={newProductImagesProblem}
          onProblem={setFileError}
          onChoose={(chosen) => {
            if (chosen.length > 0) setFileError(null);
            setFiles(chosen);
          }}
        />
      ) : null}
      <UploadProgress percent={uploadPercent ?? null} />
      <Button type="primary" htmlType="submit" loading={submitting}>
        {mode === 'create' ? 'Save Product' : 'Update Product'}
      </Button>
    </Form>
  );
}
