import { api, type Product, QboSessionBanner, useAppDispatch } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Alert, ArrowLeftOutlined, Button, DeleteOutlined, EditOutlined, Flex } from '@decor/web-core/ui';
import { Modal } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { inventoryPath } from '../../../shared/inventory-path';
import {
  type ProductInput,
  useDeleteProductMutation,
  useUpdateProductMutation,
} from '../api/product-admin-api';
import { failureText, isQboSessionError, PRODUCT_ADMIN_TEXTS as T } from '../texts';
import { ImagesManager } from './ImagesManager';
import { ProductForm } from './ProductForm';

/**
 * The product page's edit (pencil) and delete (trash) icons for staff with their dialogs (spec orders
 * §2): edit chooses Images or Product Details; the delete variant is titled Delete. Loaded only for
 * staff (React.lazy).
 */
export default function ProductAdminActions({
  product,
  category,
  subcategory,
}: {
  product: Product;
  category: string;
  subcategory: string;
}) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [generation, setGeneration] = useState(0);
  const close = () => setDialog(null);
  const reset = () => setGeneration((g) => g + 1);
  return (
    <Flex gap={4}>
      <Button icon={<EditOutlined />} aria-label={`Edit ${product.name}`} onClick={() => setDialog('edit')} />
      <Button
        danger
        icon={<DeleteOutlined />}
        aria-label={`Delete ${product.name}`}
        onClick={() => setDialog('delete')}
      />
      <EditProductDialog
        key={`edit-${generation}`}
        open={dialog === 'edit'}
        product={product}
        onClose={close}
        afterClose={reset}
      />
      <DeleteProductDialog
        key={`delete-${generation}`}
        open={dialog === 'delete'}
        product={product}
        listPath={inventoryPath(category, subcategory)}
        onClose={close}
        afterClose={reset}
      />
    </Flex>
  );
}

function EditProductDialog({
  open,
  product,
  onClose,
  afterClose,
}: {
  open: boolean;
  product: Product;
  onClose: () => void;
  afterClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<'choose' | 'images' | 'details'>('choose');
  const [updated, setUpdated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [update, updating] = useUpdateProductMutation();
  /** On close the product page refreshes (whatever changed in the dialog). */
  const close = () => {
    onClose();
    dispatch(api.util.invalidateTags([{ type: 'Product', id: product.id }]));
  };

  const save = async (values: ProductInput) => {
    setError(null);
    try {
      await update({ ...values, id: product.id }).unwrap();
      setUpdated(true);
    } catch (failure) {
      setError(isQboSessionError(failure) ? null : failureText(failure));
    }
  };

  const title =
    step === 'images' ? 'Edit Images' : step === 'details' ? 'Edit Product Details' : 'Edit Product';
  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      afterClose={afterClose}
      footer={null}
      destroyOnHidden
      width={640}
      mask={{ closable: false }}
    >
      <Flex vertical gap={12}>
        <QboSessionBanner />
        {step === 'choose' ? (
          <>
            <p style={{ margin: 0 }}>What would you like to edit?</p>
            <Flex gap={12} wrap>
              <Button onClick={() => setStep('images')}>Images</Button>
              <Button onClick={() => setStep('details')}>Product Details</Button>
            </Flex>
          </>
        ) : (
          <Button
            type="link"
            icon={<ArrowLeftOutlined />}
            style={{ alignSelf: 'start', paddingInline: 0 }}
            onClick={() => {
              setStep('choose');
              setUpdated(false);
              setError(null);
            }}
          >
            Back
          </Button>
        )}
        {step === 'images' ? <ImagesManager product={product} /> : null}
        {step === 'details' ? (
          updated ? (
            <>
              <Alert type="success" showIcon title={T.productUpdated} />
              <Flex justify="end">
                <Button type="primary" onClick={close}>
                  Done
                </Button>
              </Flex>
            </>
          ) : (
            <>
              {error ? <Alert type="error" showIcon title={error} /> : null}
              <ProductForm
                mode="edit"
                initial={{
                  id: product.id,
                  name: product.name,
                  description: product.description,
                  category: product.category,
                  subcategory: product.subcategory,
                  ...(product.price === undefined ? {} : { price: product.price }),
                  ...(product.quantity === undefined ? {} : { quantity: product.quantity }),
                  turnaroundBefore: product.turnaroundBefore ?? null,
                  turnaroundAfter: product.turnaroundAfter ?? null,
                }}
                submitting={updating.isLoading}
                onSubmit={(values) => void save(values)}
              />
            </>
          )
        ) : null}
      </Flex>
    </Modal>
  );
}

function DeleteProductDialog({
  open,
  product,
  listPath,
  onClose,
  afterClose,
}: {
  open: boolean;
  product: Product;
  listPath: string;
  onClose: () => void;
  afterClose: () => void;
}) {
  const navigate = useNavigate();
  const [remove, removing] = useDeleteProductMutation();
  /** A failed delete: the spec's text, and the server's words when they say more. */
  const [failure, setFailure] = useState<{ detail: string | null } | null>(null);

  const confirm = async () => {
    setFailure(null);
    try {
      await remove(product.id).unwrap();
      onClose();
      navigate(listPath);
    } catch (error) {
      if (isQboSessionError(error)) return;
      const detail = failureText(error);
      setFailure({ detail: detail === T.deleteError ? null : detail });
    }
  };

  return (
    <Modal
      open={open}
      title="Delete"
      onCancel={onClose}
      afterClose={afterClose}
      destroyOnHidden
      okText="Delete"
      okButtonProps={{ danger: true, loading: removing.isLoading }}
      onOk={() => void confirm()}
    >
      <Flex vertical gap={12}>
        <QboSessionBanner />
        {failure ? <Alert type="error" showIcon title={T.deleteError} description={failure.detail} /> : null}
        <p style={{ margin: 0 }}>{T.deleteQuestion(product.name)}</p>
      </Flex>
    </Modal>
  );
}
