/** A subcategory's list in the inventory (the side navigation's links; product-admin goes back to it). */
export const inventoryPath = (category: string, subcategory: string) =>
  `/inventory/${encodeURIComponent(category)}/${encodeURIComponent(subcategory)}`;
