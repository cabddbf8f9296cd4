import { api, fetchCategories, QboSessionBanner, useAppDispatch, useAppSelector } from '@decor/web-core';
import { Alert, Button, Flex, Loading, PlusOutlined } from '@decor/web-core/ui';
import { Modal } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import {
  type CategoryInput,
  type ProductInput,
  useCreateCategoryMutation,
  useCreateProductMutation,
} from '../api/product-admin-api';
import { failureText, isQboSessionError, PRODUCT_ADMIN_TEXTS as T } from '../texts';
import { useImageUpload } from '../use-image-upload';
import { CategoryForm } from './CategoryForm';
import { ProductForm } from './ProductForm';

type Kind = 'category' | 'product';

/**
 * The inventory list's Add Product button and dialog for staff (spec orders §2): pick Category or
 * Product, Continue, the categories load, the form, submit. On close the dialog resets and the
 * product list and the categories refresh (§4). Loaded only for staff (React.lazy).
 */
export default function AddProduct({ category, subcategory }: { category: string; subcategory: string }) {
  const [open, setOpen] = useState(false);
  const [generation, setGeneration] = useState(0);
  const dispatch = useAppDispatch();
  return (
    <>
      <Button
        icon={<PlusOutlined aria-hidden="true" />}
        style={{ marginBottom: 16 }}
        onClick={() => setOpen(true)}
      >
        {T.addProduct}
      </Button>
      <AddProductDialog
        key={generation}
        open={open}
        initial={{ category, subcategory }}
        onClose={() => {
          setOpen(false);
          dispatch(api.util.invalidateTags([{ type: 'Product', id: 'LIST' }]));
          void dispatch(fetchCategories());
        }}
        afterClose={() => setGeneration((g) => g + 1)}
      />
    </>
  );
}

function AddProductDialog({
  open,
  initial,
  onClose,
  afterClose,
}: {
  open: boolean;
  initial: { category: string; subcategory: string };
  onClose: () => void;
  afterClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const [choice, setChoice] = useState<Kind | null>(null);
  const [step, setStep] = useState<'choose' | Kind>('choose');
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const { loading, error: categoriesFailed } = useAppSelector((s) => s.sideNav);
  const [createProduct, product] = useCreateProductMutation();
  const [createCategory, category] = useCreateCategoryMutation();
  const { upload, percent } = useImageUpload();
  const [uploading, setUploading] = useState(false);

  const next = () => {
    if (!choice) return;
    void dispatch(fetchCategories());
    setStep(choice);
  };

  const saveProduct = async (values: ProductInput, files: File[]) => {
    setError(null);
    setUploadError(null);
    try {
      await createProduct(values).unwrap();
    } catch (failure) {
      setError(isQboSessionError(failure) ? null : failureText(failure));
      return;
    }
    if (files.length > 0) {
      setUploading(true);
      try {
        await upload(values.id, files);
      } catch (failure) {
        if (!isQboSessionError(failure)) setUploadError(failureText(failure));
      } finally {
        setUploading(false);
      }
    }
    setSaved(T.productSaved);
  };

  const saveCategory = async (values: CategoryInput) => {
    setError(null);
    try {
      await createCategory(values).unwrap();
      setSaved(T.categorySaved);
    } catch (failure) {
      setError(isQboSessionError(failure) ? null : failureText(failure));
    }
  };

  const title = step === 'category' ? 'Add Category' : 'Add Product';
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      afterClose={afterClose}
      footer={null}
      destroyOnHidden
      width={640}
      mask={{ closable: false }}
    >
      <Flex vertical gap={12}>
        {step !== 'choose' ? <QboSessionBanner /> : null}
        {step === 'choose' ? (
          <>
            <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
              <legend style={{ marginBottom: 8 }}>What would you like to add?</legend>
              <Flex gap={24}>
                {(['category', 'product'] as const).map((kind) => (
                  <label
                    key={kind}
                    style={{ display: 'flex', gap: 8, alignItems: 'center', cursor: 'pointer' }}
                  >
                    <input
                      type="radio"
                      name="add-kind"
                      value={kind}
                      checked={choice === kind}
                      onChange={() => setChoice(kind)}
                    />
                    {kind === 'category' ? 'Category' : 'Product'}
                  </label>
                ))}
              </Flex>
            </fieldset>
            <Flex justify="end">
              <Button type="primary" disabled={!choice} onClick={next}>
                Continue
              </Button>
            </Flex>
          </>
        ) : saved ? (
          <>
            <Alert type="success" showIcon title={saved} />
            {uploadError ? (
              <Alert type="error" showIcon title={T.uploadError} description={uploadError} />
            ) : null}
            <Flex justify="end">
              <Button type="primary" onClick={onClose}>
                Done
              </Button>
            </Flex>
          </>
        ) : loading ? (
          <Loading label="Loading the categories" style={{ margin: 24 }} />
        ) : (
          <>
            {categoriesFailed ? <Alert type="error" showIcon title={T.categoriesError} /> : null}
            {error ? <Alert type="error" showIcon title={error} /> : null}
            {step === 'product' ? (
              <ProductForm
                mode="create"
                initial={initial}
                submitting={product.isLoading || uploading}
                uploadPercent={percent}
                onSubmit={(values, files) => void saveProduct(values, files)}
              />
            ) : (
              <CategoryForm
                submitting={category.isLoading}
                onSubmit={(values) => void saveCategory(values)}
              />
            )}
          </>
        )}
      </Flex>
    </Modal>
  );
}
