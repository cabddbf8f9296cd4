import { type ProductImage as Image, mainImage } from '@decor/web-core';
import type { CSSProperties } from 'react';

export function ProductImage({
  images,
  alt,
  style,
  priority = false,
}: {
  images: Image[] | undefined;
  alt: string;
  style?: CSSProperties;
  /** Above the fold and likely the page's largest paint: loaded at once, asked for first. */
  priority?: boolean;
}) {
  const { url, placeholder } = mainImage(images);
  return (
    <img
      src={url}
      alt={placeholder ? `${alt} (no photo yet)` : alt}
      // Dimensions reserve the 4:3 box before the photo arrives (no layout shift).
      width={400}
      height={300}
      loading={priority ? 'eager' : 'lazy'}
      {...(priority ? { fetchPriority: 'high' as const } : {})}
      style={{
        width: '100%',
        height: 'auto',
        aspectRatio: '4 / 3',
        objectFit: 'cover',
        borderRadius: 8,
        background: '#efe6da',
        ...style,
      }}
    />
  );
}
