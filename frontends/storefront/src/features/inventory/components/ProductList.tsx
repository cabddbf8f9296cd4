import {
  isCustomer,
  isStaff,
  type Product,
  useAppSelector,
  useBottomSentinel,
  useListProductsInfiniteQuery,
} from '@decor/web-core';
import { useNavigate, useParams } from '@decor/web-core/router';
import { Alert, Button, Empty, Loading } from '@decor/web-core/ui';
import { Suspense } from 'react';
import { useGetAvailabilityQuery } from '../../../shared/availability/api/availability-api';
import { useCheckedDates } from '../../../shared/availability/checked-dates';
import { AvailabilityNote } from '../../../shared/availability/components/AvailabilityNote';
import { DateCheck } from '../../../shared/availability/components/DateCheck';
import { useStaffTools } from '../../../shared/staff-tools';
import { TEXTS } from '../../../texts';
import { CustomerAddToCart } from './CustomerAddToCart';
import { Price } from './Price';
import { ProductImage } from './ProductImage';

export const productPath = (p: Pick<Product, 'id'>, category: string, subcategory: string) =>
  `/inventory/${encodeURIComponent(category)}/${encodeURIComponent(subcategory)}/${encodeURIComponent(p.id)}`;

/** /inventory/{category}/{subcategory}: the products of a subcategory (spec §2), more on scroll. */
export function ProductList() {
  const { category = '', subcategory = '' } = useParams();
  const permissions = useAppSelector((s) => s.session.user?.permissions);
  // Staff's Add Product dialog (product-admin's, handed in by the app): its own chunk.
  const staffTools = useStaffTools();
  const { data, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useListProductsInfiniteQuery(
      { category, subcategory: [subcategory] },
      { skip: !category || !subcategory },
    );
  const products = data?.pages.flatMap((page) => page.items);
  const sentinel = useBottomSentinel(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, hasNextPage && !isFetching);

  return (
    <section aria-labelledby="list-title" style={{ flex: 1, minWidth: 0, padding: 'clamp(12px, 3vw, 28px)' }}>
      <h1 id="list-title" style={{ marginTop: 0, fontSize: 'clamp(22px, 3.5vw, 32px)' }}>
        {subcategory}
        <span
          style={{ display: 'block', fontSize: 14, fontFamily: 'inherit', color: '#6b5d52', fontWeight: 400 }}
        >
          {category}
        </span>
      </h1>
      {isStaff(permissions) && staffTools ? (
        <Suspense fallback={null}>
          <staffTools.AddProduct category={category} subcategory={subcategory} />
        </Suspense>
      ) : null}
      <DateCheck />
      {isError ? <Alert type="error" showIcon title={TEXTS.productsError} /> : null}
      {isFetching && !data ? (
        <Loading label="Loading the products" size="large" style={{ display: 'block', margin: 48 }} />
      ) : null}
      {products && products.length === 0 ? <Empty description={TEXTS.noProducts} /> : null}
      <ul
        style={{
          listStyle: 'none',
          padding: 0,
          margin: 0,
          display: 'grid',
          gap: 20,
          gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))',
        }}
      >
        {(data?.pages ?? []).map((page, i) => (
          <PageCards
            key={page.items[0]?.id ?? 'empty'}
            first={i === 0}
            items={page.items}
            category={category}
            subcategory={subcategory}
          />
        ))}
      </ul>
      <div ref={sentinel} data-testid="products-bottom" style={{ height: 1 }} />
      {isFetchingNextPage ? (
        <Loading label="Loading more products" style={{ display: 'block', margin: 24 }} />
      ) : null}
    </section>
  );
}

/** One page of products (at most 48: one availability check for them all when days are checked). */
function PageCards({
  items,
  first,
  category,
  subcategory,
}: {
  items: Product[];
  /** The first page: its first cards are above the fold. */
  first: boolean;
  category: string;
  subcategory: string;
}) {
  const permissions = useAppSelector((s) => s.session.user?.permissions);
  const signedIn = useAppSelector((s) => !!s.session.user);
  const navigate = useNavigate();
  const dates = useCheckedDates();
  const availability = useGetAvailabilityQuery(
    { from: dates?.from ?? '', to: dates?.to, ids: items.map((p) => p.id) },
    { skip: !dates || items.length === 0 },
  );
  return (
    <>
      {items.map((product, i) => (
        <li
          key={product.id}
          style={{
            background: '#fff',
            borderRadius: 10,
            padding: 12,
            boxShadow: '0 1px 3px rgba(43,36,32,0.08)',
            display: 'flex',
            flexDirection: 'column',
            gap: 8,
          }}
        >
          <ProductImage images={product.Images} alt={product.name} priority={first && i < 2} />
          <h2 style={{ fontSize: 17, margin: '4px 0 0' }}>{product.name}</h2>
          {signedIn ? <Price product={product} /> : null}
          {dates ? (
            <AvailabilityNote
              availability={availability.data?.get(product.id)}
              loading={availability.isFetching}
              failed={availability.isError}
            />
          ) : null}
          <div style={{ marginTop: 'auto', display: 'flex', flexDirection: 'column', gap: 8 }}>
            {isCustomer(permissions) ? (
              <CustomerAddToCart
                product={product}
                compact
                limit={dates ? availability.data?.get(product.id)?.available : undefined}
              />
            ) : null}
            <Button onClick={() => navigate(productPath(product, category, subcategory))}>More Info</Button>
          </div>
        </li>
      ))}
    </>
  );
}
