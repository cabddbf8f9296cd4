import { Alert } from '@decor/web-core/ui';
import { useId, useRef } from 'react';
import { shortImageName } from '../image-rules';
import { PRODUCT_ADMIN_TEXTS } from '../texts';

/**
 * The image file picker (spec orders §5): image files only, several at once; `check` says what is
 * wrong with a selection, which is then cleared and the message shown. Chosen names over 30
 * characters are cut to 30 plus an ellipsis.
 */
export function ImagePicker({
  label,
  disabled,
  chosen,
  error,
  onChoose,
  check,
  onProblem,
}: {
  label: string;
  disabled?: boolean;
  chosen: readonly File[];
  error: string | null;
  onChoose: (files: File[]) => void;
  check: (files: readonly File[]) => string | undefined;
  onProblem: (message: string) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const onChange = (list: FileList | null) => {
    const files = Array.from(list ?? []);
    const problem = check(files);
    if (problem) {
      if (input.current) input.current.value = '';
      onProblem(problem);
      onChoose([]);
      return;
    }
    onChoose(files);
  };
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 8 }}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        multiple
        disabled={disabled}
        onChange={(e) => onChange(e.target.files)}
      />
      {chosen.length > 0 ? (
        <ul aria-label="Chosen images" style={{ margin: '8px 0 0', paddingLeft: 20 }}>
          {chosen.map((f) => (
            <li key={`${f.name}-${f.size}-${f.lastModified}`} title={f.name}>
              {shortImageName(f.name)}
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 8 }} role="alert" /> : null}
    </div>
  );
}

/** The upload's progress bar while files travel to S3. */
export function UploadProgress({ percent }: { percent: number | null }) {
  if (percent === null) return null;
  return (
    <div style={{ margin: '8px 0 16px' }}>
      <progress
        aria-label={PRODUCT_ADMIN_TEXTS.uploading}
        max={100}
        value={percent}
        style={{ width: '100%', height: 10 }}
      />
      <span aria-hidden="true" style={{ fontSize: 12, color: '#6b5d52' }}>
        {percent}%
      </span>
    </div>
  );
}
