import { CompanyUpserted } from '@decor/contracts';
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
  },
  { timestamps: true },
);
// One record per company name, so the demo seed (an upsert by name) cannot create two.
companySchema.index({ name: 1 }, { unique: true });
companySchema.plugin(outboxPlugin);

export type CompanyModel = Model<Company>;

export function companyModel(connection: Connection): CompanyModel {
  return connection.model<Company>('Company', companySchema, 'companies');
}

/** The company's whole current state as an event (accounting-sync makes it a QuickBooks customer). */
export function companyUpsertedEvent(
  company: Pick<Company, 'name' | 'displayName' | 'street' | 'city' | 'state' | 'zipCode' | 'phone'> & {
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
      ...Object.fromEntries(optional.map((k) => [k, company[k] as string])),
    },
  });
}
