import { toDollars } from '@decor/contracts';
import { ITEM_NAME_MAX_LENGTH, lineDescription, qboDisplayName } from './names';
import type { CategoryRecord, ProductRecord, QboItem, Ref } from './types';

/**
 * A product → a QuickBooks Service item.
 *
 * Name = the SKU: QuickBooks wants Item names unique and the SKU is the product's id, so a renamed
 * product stays the same item and two products with one name cannot collide. The product's name
 * therefore lives in Description, as "name — description" (the same text as on estimate lines), so
 * staff who pick the item by hand in QuickBooks see what it is. Sku = the SKU too; UnitPrice in
 * dollars; Taxable (rentals are taxed, spec §9); a SubItem of its category when it has one.
 */
export function productItemDocument(p: ProductRecord, incomeAccountRef?: Ref): QboItem {
  const doc: QboItem = {
    Name: qboDisplayName(p.sku, ITEM_NAME_MAX_LENGTH),
    Type: 'Service',
    Description: lineDescription(p.name, p.description),
    Sku: p.sku.trim(),
    UnitPrice: toDollars(p.priceCents),
    Active: p.active,
    Taxable: true,
  };
  if (incomeAccountRef) doc.IncomeAccountRef = incomeAccountRef;
  if (p.parentCategoryRef) {
    doc.SubItem = true;
    doc.ParentRef = p.parentCategoryRef;
  }
  return doc;
}

/** Spec §3: a category is `{Name, Type: 'Category'}`; a subcategory adds SubItem and ParentRef. */
export function categoryItemDocument(c: CategoryRecord): QboItem {
  const doc: QboItem = { Name: qboDisplayName(c.name, ITEM_NAME_MAX_LENGTH), Type: 'Category' };
  if (c.parentRef) {
    doc.SubItem = true;
    doc.ParentRef = c.parentRef;
  }
  return doc;
}
