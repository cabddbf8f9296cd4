import type { Product } from '@decor/web-core';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Tag } from '@decor/web-core/ui-data';
import { useState } from 'react';
import {
  useDeleteImageMutation,
  useGetProductImagesQuery,
  useSetPrimaryImageMutation,
} from '../api/product-admin-api';
import { addedImagesProblem, IMAGE_TEXTS, remainingImageSlots } from '../image-rules';
import { failureText, isQboSessionError, PRODUCT_ADMIN_TEXTS as T } from '../texts';
import { useImageUpload } from '../use-image-upload';
import { ImagePicker, UploadProgress } from './ImagePicker';

/** The catalogue saves a placeholder link after the last image is deleted (spec §4); it is no file. */
export const PLACEHOLDER_IMAGE_ID = 'placeholder';

interface Failure {
  title: string;
  detail: string | null;
}

/**
 * The edit dialog's Images step (spec orders §2, §5): the product's images with Set primary and
 * delete, and the picker whose label says how many more can be uploaded (5 in total); at the limit it
 * says to remove one first.
 */
export function ImagesManager({ product }: { product: Product }) {
  const images = useGetProductImagesQuery(product.id, { refetchOnMountOrArgChange: true });
  const [setPrimary, primary] = useSetPrimaryImageMutation();
  const [deleteImage, deleting] = useDeleteImageMutation();
  const { upload, percent } = useImageUpload();
  const [uploading, setUploading] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  /** A new picker after each upload, so the same file can be chosen again. */
  const [picker, setPicker] = useState(0);

  const real = (images.data ?? []).filter((i) => i.id !== PLACEHOLDER_IMAGE_ID);
  const remaining = remainingImageSlots(real.length);
  const busy = uploading || primary.isLoading || deleting.isLoading || images.isFetching;

  const run = async (title: string, action: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await action();
    } catch (error) {
      if (!isQboSessionError(error)) {
        const detail = failureText(error);
        setFailure({ title, detail: detail === title ? null : detail });
      }
    }
  };

  const add = async (files: File[]) => {
    if (files.length === 0) return;
    setPickError(null);
    setUploading(true);
    await run(T.uploadError, () => upload(product.id, files));
    setUploading(false);
    setPicker((n) => n + 1);
  };

  if (images.isLoading) return <Loading label="Loading the images" style={{ margin: 24 }} />;
  if (images.isError) return <Alert type="error" showIcon title={T.imagesLoadError} />;

  return (
    <Flex vertical gap={12}>
      {failure ? <Alert type="error" showIcon title={failure.title} description={failure.detail} /> : null}
      {real.length === 0 ? <p style={{ margin: 0 }}>This product has no images yet.</p> : null}
      <ul
        aria-label={`Images of ${product.name}`}
        style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 12 }}
      >
        {real.map((image, i) => (
          <li key={image.id} style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
            <img
              src={image.url}
              alt={`${product.name}, ${i + 1} of ${real.length}`}
              style={{ width: 96, aspectRatio: '4 / 3', objectFit: 'cover', borderRadius: 6 }}
            />
            <Flex gap={8} wrap align="center">
              {image.primary ? (
                <Tag color="gold">Primary</Tag>
              ) : (
                <Button
                  size="small"
                  disabled={busy}
                  aria-label={`Set primary: image ${i + 1}`}
                  onClick={() =>
                    void run(T.imageUpdateError, () =>
                      setPrimary({ id: product.id, imageId: image.id }).unwrap(),
                    )
                  }
                >
                  Set primary
                </Button>
              )}
              <Button
                size="small"
                danger
                disabled={busy}
                aria-label={`Delete image ${i + 1}`}
                onClick={() =>
                  void run(T.imageDeleteError, () =>
                    deleteImage({ id: product.id, imageId: image.id }).unwrap(),
                  )
                }
              >
                Delete
              </Button>
            </Flex>
          </li>
        ))}
      </ul>
      <ImagePicker
        key={picker}
        label={remaining > 0 ? T.imagesLeft(remaining) : IMAGE_TEXTS.atLimit}
        disabled={remaining === 0 || busy}
        chosen={[]}
        error={pickError}
        check={(files) => addedImagesProblem(real.length, files)}
        onProblem={setPickError}
        onChoose={(files) => void add(files)}
      />
      <UploadProgress percent={percent} />
    </Flex>
  );
}
