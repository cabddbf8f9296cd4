import {
  type ApiError,
  isCustomer,
  isStaff,
  useAppSelector,
  useGetProductQuery,
  withMain,
} from '@decor/web-core';
import { Link, useParams } from '@decor/web-core/router';
import { Alert, ArrowLeftOutlined, Empty, Flex, Loading } from '@decor/web-core/ui';
import { Suspense, useState } from 'react';
import { useGetAvailabilityQuery } from '../../../shared/availability/api/availability-api';
import { useCheckedDates } from '../../../shared/availability/checked-dates';
import { AvailabilityNote } from '../../../shared/availability/components/AvailabilityNote';
import { DateCheck } from '../../../shared/availability/components/DateCheck';
import { inventoryPath } from '../../../shared/inventory-path';
import { useStaffTools } from '../../../shared/staff-tools';
import { TEXTS } from '../../../texts';
import { CustomerAddToCart } from './CustomerAddToCart';
import { Price } from './Price';
import { ProductImage } from './ProductImage';

/**
 * Photo and text side by side once the page is wide enough for two 320 px columns and their gap, one
 * above the other below. A container query, not `repeat(auto-fit, …)`: auto-fit counts the parsed
 * children, so a page painted half-parsed (a slow device) showed the photo full width, then halved it
 * and moved its thumbnails when the text column arrived.
 */
const PRODUCT_LAYOUT_CSS = `.product-page{container-type:inline-size}
.product-layout{display:grid;gap:24px;margin-top:16px}
@container (min-width:664px){.product-layout{grid-template-columns:repeat(2,minmax(0,1fr))}}`;

/** /inventory/{category}/{subcategory}/{productId} (spec §2). */
export function ProductPage() {
  const { category = '', subcategory = '', productId = '' } = useParams();
  const permissions = useAppSelector((s) => s.session.user?.permissions);
  // Staff's edit and delete icons with their dialogs (product-admin's, handed in by the app): their own chunk.
  const staffTools = useStaffTools();
  const signedIn = useAppSelector((s) => !!s.session.user);
  const { data: product, isFetching, error } = useGetProductQuery(productId, { skip: !productId });
  const [mainId, setMainId] = useState<string | null>(null);
  const dates = useCheckedDates();
  const availability = useGetAvailabilityQuery(
    { from: dates?.from ?? '', to: dates?.to, ids: [productId] },
    { skip: !dates || !productId },
  );
  const free = dates ? availability.data?.get(productId) : undefined;
  const notFound = (error as ApiError | undefined)?.status === 404 || product === null;

  const back = (
    <Link to={inventoryPath(category, subcategory)}>
      <ArrowLeftOutlined /> Back to {subcategory}
    </Link>
  );

  if (isFetching && !product)
    return <Loading label="Loading the product" size="large" style={{ display: 'block', margin: 48 }} />;
  if (notFound) {
    return (
      <section style={{ flex: 1, padding: 24 }}>
        {back}
        <Empty description={TEXTS.noProduct} />
      </section>
    );
  }
  if (error || !product) {
    return (
      <section style={{ flex: 1, padding: 24 }}>
        {back}
        <Alert type="error" showIcon title={TEXTS.productError} style={{ marginTop: 16 }} />
      </section>
    );
  }

  const { main, thumbnails } = withMain(product.Images, mainId);
  return (
    <article className="product-page" style={{ flex: 1, minWidth: 0, padding: 'clamp(12px, 3vw, 28px)' }}>
      <style>{PRODUCT_LAYOUT_CSS}</style>
      {back}
      <div className="product-layout">
        <div>
          <ProductImage
            images={main ? [main] : []}
            alt={product.name}
            style={{ aspectRatio: '4 / 3' }}
            priority
          />
          {thumbnails.length > 0 ? (
            <Flex gap={8} wrap style={{ marginTop: 8 }}>
              {thumbnails.map((image, i) => (
                <button
                  key={image.id}
                  type="button"
                  onClick={() => setMainId(image.id)}
                  aria-label={`Show photo ${i + 2} of ${product.name}`}
                  style={{
                    padding: 0,
                    border: '1px solid #e5dccf',
                    borderRadius: 6,
                    cursor: 'pointer',
                    width: 84,
                  }}
                >
                  <img
                    src={image.url}
                    alt=""
                    width={84}
                    height={63}
                    loading="lazy"
                    style={{
                      width: '100%',
                      aspectRatio: '4 / 3',
                      objectFit: 'cover',
                      display: 'block',
                      borderRadius: 5,
                    }}
                  />
                </button>
              ))}
            </Flex>
          ) : null}
        </div>
        <div>
          <Flex justify="space-between" align="start" gap={8}>
            <h1 style={{ marginTop: 0 }}>{product.name}</h1>
            {isStaff(permissions) && staffTools ? (
              <Suspense fallback={null}>
                <staffTools.ProductAdminActions
                  product={product}
                  category={category}
                  subcategory={subcategory}
                />
              </Suspense>
            ) : null}
          </Flex>
          {signedIn ? (
            <p>
              <Price product={product} />
            </p>
          ) : null}
          <p style={{ lineHeight: 1.7, whiteSpace: 'pre-line' }}>{product.description}</p>
          {signedIn ? <p style={{ color: '#6b5d52' }}>SKU: {product.id}</p> : null}
          <DateCheck />
          {dates ? (
            <p>
              <AvailabilityNote
                availability={free}
                loading={availability.isFetching}
                failed={availability.isError}
              />
            </p>
          ) : null}
          {isCustomer(permissions) ? <CustomerAddToCart product={product} limit={free?.available} /> : null}
        </div>
      </div>
    </article>
  );
}
