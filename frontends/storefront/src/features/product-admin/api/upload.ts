/**
 * Spec orders §7: image files go from the browser straight to S3, PUT to the presigned URL with the
 * file's content type and NO Authorization header (the session token must not travel to the storage
 * host), so this is a plain XMLHttpRequest, not the shared axios client. Its upload events drive the
 * progress bar.
 */
import type { ApiError } from '@decor/web-core';
import { PRODUCT_ADMIN_TEXTS } from '../texts';

export const UPLOAD_TIMEOUT_MS = 60_000;

export function putFile(url: string, file: File, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (status: number) =>
      reject({ status, message: PRODUCT_ADMIN_TEXTS.uploadError } satisfies ApiError);
    xhr.open('PUT', url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        resolve();
      } else fail(xhr.status);
    };
    xhr.onerror = () => fail(500);
    xhr.ontimeout = () => fail(408);
    xhr.send(file);
  });
}
