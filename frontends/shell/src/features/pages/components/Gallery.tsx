import { useGetProductsQuery } from '@decor/web-core';
import { Alert, Loading } from '@decor/web-core/ui';
import { useEffect, useMemo, useState } from 'react';
import { Viewer, type ViewerImage } from './gallery/Viewer';

const DEFAULT_RATIO = 4 / 3;

/** The gallery (spec §1): a justified photo grid of the decor; a photo opens the full-screen viewer. */
export default function Gallery() {
  const { data: products, isLoading, isError } = useGetProductsQuery({});
  const [open, setOpen] = useState<number | null>(null);
  const [ratios, setRatios] = useState<Record<string, number>>({});

  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  const images: ViewerImage[] = useMemo(
    () =>
      (products ?? [])
        .filter((p) => p.category !== 'Warehouse')
        .flatMap((p) =>
          p.Images.map((image, i) => ({
            src: image.url,
            alt: p.Images.length > 1 ? `${p.name}, photo ${i + 1}` : p.name,
            caption: p.name,
          })),
        ),
    [products],
  );

  return (
    <div className="page">
      <h1 style={{ marginTop: 0 }}>Gallery</h1>
      {isLoading ? <Loading label="Loading the gallery" /> : null}
      {isError ? (
        <Alert type="error" showIcon title="Uh oh, an error occurred while loading the products" />
      ) : null}
      <div className="justified">
        {images.map((image, i) => {
          const ratio = ratios[image.src] ?? DEFAULT_RATIO;
          return (
            <button
              key={image.src}
              className="tile"
              type="button"
              style={{ flexGrow: ratio, flexBasis: `${ratio * 160}px`, aspectRatio: String(ratio) }}
              onClick={() => setOpen(i)}
              aria-label={`Open ${image.alt}`}
            >
              <img
                src={image.src}
                alt={image.alt}
                width={Math.round(ratio * 160)}
                height={160}
                loading={i < 4 ? 'eager' : 'lazy'}
                // The first tile is the phone's largest paint: asked for first.
                fetchPriority={i === 0 ? 'high' : undefined}
                onLoad={(event) => {
                  const { naturalWidth: w, naturalHeight: h } = event.currentTarget;
                  if (w > 0 && h > 0) setRatios((r) => ({ ...r, [image.src]: w / h }));
                }}
              />
            </button>
          );
        })}
      </div>
      {open !== null ? <Viewer images={images} start={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
