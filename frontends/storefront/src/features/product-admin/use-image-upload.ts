import { useState } from 'react';
import { useAttachImagesMutation, usePresignImagesMutation } from './api/product-admin-api';
import { postFile } from './api/upload';

/**
 * Spec orders §7 presigned uploads: POST /product/{id}/presignedUrl (one form per file), POST each file
 * straight to S3 with its signed fields (a presigned POST, size-bounded: issue 28), then POST /product/{id}/image with the URLs the files are served from. `percent` is the
 * share of bytes sent while an upload runs (null otherwise). Rejects with an ApiError.
 */
export function useImageUpload() {
  const [presign] = usePresignImagesMutation();
  const [attach] = useAttachImagesMutation();
  const [percent, setPercent] = useState<number | null>(null);

  const upload = async (productId: string, files: readonly File[]): Promise<void> => {
    const total = files.reduce((n, f) => n + f.size, 0) || 1;
    const sent = files.map(() => 0);
    const report = () =>
      setPercent(Math.min(100, Math.round((100 * sent.reduce((a, b) => a + b, 0)) / total)));
    setPercent(0);
    try {
      const uploads = await presign({
        id: productId,
        files: files.map((f) => ({ id: f.name, type: f.type })),
      }).unwrap();
      await Promise.all(
        files.map((file, i) =>
          postFile(uploads[i] ?? { url: '', fields: {} }, file, (loaded) => {
            sent[i] = loaded;
            report();
          }),
        ),
      );
      await attach({ id: productId, urls: uploads.map((u) => u.imageUrl) }).unwrap();
    } finally {
      setPercent(null);
    }
  };

  return { upload, percent };
}
