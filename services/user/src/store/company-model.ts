import { CompanyDeleted, CompanyUpserted, type CompanyView } from '@decor/contracts';
import { newEvent, type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema, type Types } from 'mongoose';

/** Back-office spec §3 Company: the customer's parent record (a customer's `CompanyId` points here). */
export interface Company extends OutboxFields {
  _id: Types.ObjectId;
  name: string;
  displayName: string;
  street?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  phone?: string;
  qboId?: string;
  /** Lower-case copies for the case-insensitive prefix search and sort (indexed). */
  nameKey?: string;
  displayNameKey?: string;
  revision?: number;
  /** While a deletion checks for customers: new customers are refused. */
  deleting?: Date | null;
  /** Set when deleted: the document stays as a tombstone (its name freed) until its event is out. */
  deletedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const companySchema = new Schema<Company>(
  {
    name: { type: String, required: true, trim: true },
    // Spec: a new company's display name is set equal to its name.
    displayName: { type: String, required: true, trim: true },
    street: String,
    city: String,
    state: String,
    zipCode: String,
    phone: String,
    qboId: String,
    nameKey: String,
    displayNameKey: String,
    revision: { type: Number, default: 0 },
    deleting: { type: Date, default: null },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
companySchema.pre('validate', function keys() {
  Object.assign(this, companyKeys(this));
});
// The staff list (spec §7): by display name, name prefix, newest first.
companySchema.index({ nameKey: 1, _id: 1 });
companySchema.index({ displayNameKey: 1, _id: 1 });
companySchema.index({ createdAt: -1, _id: -1 });
// One record per company name, so the demo seed (an upsert by name) cannot create two.
companySchema.index({ name: 1 }, { unique: true });
companySchema.plugin(outboxPlugin);

export type CompanyModel = Model<Company>;

export function companyModel(connection: Connection): CompanyModel {
  return connection.model<Company>('Company', companySchema, 'companies');
}

export function companyKeys(company: { name?: string; displayName?: string }) {
  return {
    nameKey: (company.name ?? '').toLowerCase(),
    displayNameKey: (company.displayName ?? '').toLowerCase(),
  };
}

/** The company as the API shows it. */
export function publicCompany(c: Company): CompanyView {
  return {
    id: c._id.toString(),
    name: c.name,
    displayName: c.displayName,
    street: c.street ?? null,
    city: c.city ?? null,
    state: c.state ?? null,
    zipCode: c.zipCode ?? null,
    phone: c.phone ?? null,
    qboId: c.qboId ?? null,
  };
}

export function companyDeletedEvent(company: Company, correlationId: string) {
  const id = company._id.toString();
  return newEvent(CompanyDeleted, {
    aggregateId: id,
    correlationId,
    payload: { companyId: id, name: company.name, ...(company.qboId ? { qboId: company.qboId } : {}) },
  });
}

/** The company's whole current state as an event (accounting-sync makes it a QuickBooks customer). */
export function companyUpsertedEvent(
  company: Pick<Company, 'name' | 'displayName' | 'street' | 'city' | 'state' | 'zipCode' | 'phone'> & {
    qboId?: string | null;
    _id: Types.ObjectId;
  },
  correlationId: string,
) {
  const id = company._id.toString();
  const optional = (['street', 'city', 'state', 'zipCode', 'phone'] as const).filter((k) => company[k]);
  return newEvent(CompanyUpserted, {
    aggregateId: id,
    correlationId,
    payload: {
      companyId: id,
      name: company.name,
      displayName: company.displayName,
      ...(company.qboId ? { qboId: company.qboId } : {}),
      ...Object.fromEntries(optional.map((k) => [k, company[k] as string])),
    },
  });
}
