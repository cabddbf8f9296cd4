/**
 * The shapes the document mappers read (records of the other services, flattened) and write
 * (QuickBooks Online v3 entities, only the fields this service sends). See QUICKBOOKS-NOTES.md §3.
 */

/** A QuickBooks reference: `{ value: Id, name? }`. */
export interface Ref {
  value: string;
  name?: string;
}

// ---- Inputs ------------------------------------------------------------------------------------

/** Spec §3 Company: a top-level customer in QuickBooks. */
export interface CompanyRecord {
  id: string;
  name: string;
  displayName: string;
  street?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  phone?: string;
}

/** Spec §3 User with the customer permission: a Job (sub-customer) under its company. */
export interface CustomerRecord {
  id: string;
  firstName?: string;
  lastName?: string;
  displayName: string;
  email?: string;
  phone?: string;
  ownCompany?: string;
  active: boolean;
  street?: string;
  city?: string;
  state?: string;
  zipCode?: string;
}

/** Spec §3 Product: `sku` is the product's id, entered by the admin. */
export interface ProductRecord {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  active: boolean;
  parentCategoryRef?: Ref;
}

/** Spec §3 Category or subcategory (a subcategory has the parent category's QuickBooks ref). */
export interface CategoryRecord {
  id: string;
  name: string;
  parentRef?: Ref;
}

export interface EstimateLineRecord {
  productId: string;
  name: string;
  description: string;
  qty: number;
  priceCents: number;
  totalCents: number;
}

export interface EstimateRecord {
  estimateId: string;
  docNumber: string;
  /** eventDate (YYYY-MM-DD or ISO), groupName, location, eventStartTime, eventEndTime, … (estimate-fields.ts). */
  details: Record<string, string>;
  lines: EstimateLineRecord[];
  subtotalCents: number;
  truckingCents: number;
  customerEmail?: string;
}

/** The QuickBooks ids a sales document points at, resolved by the sync before mapping. */
export interface DocumentRefs {
  customer: Ref;
  /** By productId (the SKU). */
  items: Record<string, Ref>;
  truckingItem: Ref;
  laborItem: Ref;
  /** CustomField DefinitionIds; an empty id leaves that field out. */
  customFields: { groupName: string; eventTime: string; location: string };
}

// ---- QuickBooks entities -----------------------------------------------------------------------

export interface QboPhone {
  FreeFormNumber: string;
}

export interface QboAddress {
  Line1?: string;
  City?: string;
  CountrySubDivisionCode?: string;
  PostalCode?: string;
}

export interface QboCustomer {
  DisplayName: string;
  GivenName?: string;
  FamilyName?: string;
  CompanyName?: string;
  Active?: boolean;
  PrimaryEmailAddr?: { Address: string };
  PrimaryPhone?: QboPhone;
  BillAddr?: QboAddress;
  Job?: boolean;
  ParentRef?: Ref;
  BillWithParent?: boolean;
}

export interface QboItem {
  Name: string;
  Type: 'Service' | 'Category';
  Description?: string;
  Sku?: string;
  UnitPrice?: number;
  Active?: boolean;
  Taxable?: boolean;
  IncomeAccountRef?: Ref;
  SubItem?: boolean;
  ParentRef?: Ref;
}

export type QboTaxCode = 'TAX' | 'NON';

export interface QboSalesLine {
  DetailType: 'SalesItemLineDetail';
  /** Dollars, 2 decimals; always Qty × UnitPrice (QuickBooks rejects anything else). */
  Amount: number;
  Description?: string;
  SalesItemLineDetail: {
    ItemRef: Ref;
    Qty: number;
    UnitPrice: number;
    TaxCodeRef: { value: QboTaxCode };
  };
}

export interface QboCustomField {
  DefinitionId: string;
  Name: string;
  Type: 'StringType';
  StringValue: string;
}

/** What an estimate and an invoice have in common. */
export interface QboSalesDocument {
  DocNumber: string;
  CustomerRef: Ref;
  Line: QboSalesLine[];
  TxnTaxDetail: { TotalTax: number };
  CustomField: QboCustomField[];
  CustomerMemo: { value: string };
  BillEmail?: { Address: string };
}

export interface QboEstimate extends QboSalesDocument {
  /** YYYY-MM-DD: the event date (spec §9). */
  ExpirationDate?: string;
}

export interface QboInvoice extends QboSalesDocument {
  LinkedTxn?: Array<{ TxnId: string; TxnType: 'Estimate' }>;
}
