import { type ProductImage as Image, mainImage } from '@decor/web-core';
import type { CSSProperties } from 'react';

export function ProductImage({
  images,
  alt,
  style,
}: {
  images: Image[] | undefined;
  alt: string;
  style?: CSSProperties;
}) {
  const { url, placeholder } = mainImage(images);
  return (
    <img
      src={url}
      alt={placeholder ? `${alt} (no photo yet)` : alt}
      loading="lazy"
      style={{
        width: '100%',
        aspectRatio: '4 / 3',
        objectFit: 'cover',
        borderRadius: 8,
        background: '#efe6da',
        ...style,
      }}
    />
  );
}
