/**
 * The staff's product, category and image calls (spec orders §7 "Products and images"), joined onto
 * web-core's RTK Query api (one cache, one axios client). Every change invalidates the products it
 * touches, so the inventory list and the product page refetch.
 */
import { api, type Product, type ProductImage } from '@decor/web-core';

/** What the product form sends (POST /product; PUT /product/{id} without the id). */
export interface ProductInput {
  id: string;
  name: string;
  description: string;
  category: string;
  subcategory: string;
  price: number;
  quantity: number;
  /** The product's own turnaround buffer in whole days (issue 15); null inherits its category's. */
  turnaroundBefore: number | null;
  turnaroundAfter: number | null;
}

/** A category's own turnaround buffer (GET / PUT /categories/{id}/turnaround, staff only). */
export interface CategoryTurnaround {
  Id: string;
  Name: string;
  /** Whole days; null: the shop's default. */
  before: number | null;
  after: number | null;
}

export interface CategoryInput {
  name: string;
  isSubCategory: boolean;
  /** The parent category's Id (a subcategory only). */
  parent?: string;
}

/** One file to upload: the name the admin picked it under, and its content type. */
export interface PresignRequest {
  id: string;
  type: string;
}

export interface PresignedUpload {
  id: string;
  /** Where the browser POSTs the file (no Authorization): `fields` first, then the file as `file`. */
  url: string;
  /** The presigned POST's signed form fields (key, content type, size-bounding policy, signature). */
  fields: Record<string, string>;
  /** Where the file will be served from: what is attached afterwards. */
  imageUrl: string;
}

const productTags = (id: string) => [
  { type: 'Product' as const, id },
  { type: 'Product' as const, id: 'LIST' },
  { type: 'ProductImages' as const, id },
];

const tagTypes = ['ProductImages', 'CategoryTurnaround'] as const;

const productAdminApi = api.enhanceEndpoints({ addTagTypes: tagTypes }).injectEndpoints({
  endpoints: (build) => ({
    createProduct: build.mutation<Product, ProductInput>({
      query: (body) => ({ url: '/product', method: 'POST', data: body }),
      transformResponse: (answer: { result: Product }) => answer.result,
      invalidatesTags: (_p, _e, { id }) => productTags(id),
    }),
    updateProduct: build.mutation<Product, ProductInput>({
      query: ({ id, ...body }) => ({ url: `/product/${encodeURIComponent(id)}`, method: 'PUT', data: body }),
      transformResponse: (answer: { result: Product }) => answer.result,
      invalidatesTags: (_p, _e, { id }) => productTags(id),
    }),
    deleteProduct: build.mutation<unknown, string>({
      query: (id) => ({ url: `/product/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => productTags(id),
    }),
    createCategory: build.mutation<unknown, CategoryInput>({
      query: (body) => ({ url: '/categories', method: 'POST', data: body }),
    }),
    getCategoryTurnaround: build.query<CategoryTurnaround, string>({
      query: (id) => ({ url: `/categories/${encodeURIComponent(id)}/turnaround` }),
      transformResponse: (answer: { result: CategoryTurnaround }) => answer.result,
      providesTags: (_t, _e, id) => [{ type: 'CategoryTurnaround', id }],
    }),
    setCategoryTurnaround: build.mutation<
      CategoryTurnaround,
      { id: string } & Omit<CategoryTurnaround, 'Id' | 'Name'>
    >({
      query: ({ id, ...body }) => ({
        url: `/categories/${encodeURIComponent(id)}/turnaround`,
        method: 'PUT',
        data: body,
      }),
      transformResponse: (answer: { result: CategoryTurnaround }) => answer.result,
      invalidatesTags: (_t, _e, { id }) => [{ type: 'CategoryTurnaround', id }],
    }),
    getProductImages: build.query<ProductImage[], string>({
      query: (id) => ({ url: `/product/${encodeURIComponent(id)}/image` }),
      transformResponse: (answer: { result: ProductImage[] }) => answer.result,
      providesTags: (_i, _e, id) => [{ type: 'ProductImages', id }],
    }),
    presignImages: build.mutation<PresignedUpload[], { id: string; files: PresignRequest[] }>({
      query: ({ id, files }) => ({
        url: `/product/${encodeURIComponent(id)}/presignedUrl`,
        method: 'POST',
        data: files,
      }),
      transformResponse: (answer: { result: PresignedUpload[] }) => answer.result,
    }),
    attachImages: build.mutation<unknown, { id: string; urls: string[] }>({
      query: ({ id, urls }) => ({
        url: `/product/${encodeURIComponent(id)}/image`,
        method: 'POST',
        data: urls,
      }),
      invalidatesTags: (_r, _e, { id }) => productTags(id),
    }),
    setPrimaryImage: build.mutation<unknown, { id: string; imageId: string }>({
      query: ({ id, imageId }) => ({
        url: `/product/${encodeURIComponent(id)}/image/${encodeURIComponent(imageId)}`,
        method: 'PUT',
        data: { primary: true },
      }),
      invalidatesTags: (_r, _e, { id }) => productTags(id),
    }),
    deleteImage: build.mutation<unknown, { id: string; imageId: string }>({
      query: ({ id, imageId }) => ({
        url: `/product/${encodeURIComponent(id)}/image/${encodeURIComponent(imageId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { id }) => productTags(id),
    }),
  }),
});

export const {
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useCreateCategoryMutation,
  useGetCategoryTurnaroundQuery,
  useSetCategoryTurnaroundMutation,
  useGetProductImagesQuery,
  usePresignImagesMutation,
  useAttachImagesMutation,
  useSetPrimaryImageMutation,
  useDeleteImageMutation,
} = productAdminApi;
