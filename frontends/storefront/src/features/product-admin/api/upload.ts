/**
 * Spec orders §7: image files go from the browser straight to S3 with NO Authorization header (the
 * session token must not travel to the storage host), so this is a plain XMLHttpRequest, not the
 * shared axios client; its upload events drive the progress bar. A presigned POST (issue 28): the
 * signed form fields first, the file last as `file`; its policy bounds the size, so S3 refuses a
 * file of 100 KB or more before storing it (a presigned PUT could not).
 */
import type { ApiError } from '@decor/web-core';
import { PRODUCT_ADMIN_TEXTS } from '../texts';

export const UPLOAD_TIMEOUT_MS = 60_000;

export function postFile(
  target: { url: string; fields: Record<string, string> },
  file: File,
  onProgress: (loaded: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (status: number) =>
      reject({ status, message: PRODUCT_ADMIN_TEXTS.uploadError } satisfies ApiError);
    const form = new FormData();
    for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
    form.append('file', file);
    xhr.open('POST', target.url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    // The multipart body is larger than the file: count the file's share of it.
    xhr.upload.onprogress = (event) =>
      onProgress(
        event.total > 0 ? Math.min(file.size, Math.round((event.loaded / event.total) * file.size)) : 0,
      );
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        resolve();
      } else fail(xhr.status);
    };
    xhr.onerror = () => fail(500);
    xhr.ontimeout = () => fail(408);
    xhr.send(form);
  });
}
