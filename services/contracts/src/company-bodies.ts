/**
 * The company request bodies (spec orders §3 Company): what the admin screens send to
 * `POST /company` and `PUT /company/{id}`, written once. Each is a JSON schema (the user service
 * validates and documents its routes with it) and its type, which the admin frontend imports as a
 * type only (`@decor/contracts/rules`). Every field is optional here: the user service refuses a new
 * company without its required fields with a message (400), not a schema error.
 */
import { type Static, Type } from '@sinclair/typebox';

const Text = (max = 200) => Type.String({ maxLength: max });

const companyFields = {
  name: Type.Optional(Text()),
  displayName: Type.Optional(Text()),
  street: Type.Optional(Text()),
  city: Type.Optional(Text()),
  state: Type.Optional(Text(100)),
  zipCode: Type.Optional(Text(20)),
  // Optional: empty or null clears it.
  phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
};

/** `PUT /company/{id}`: any of its details (the display name follows the name). */
export const CompanyChanges = Type.Object(companyFields, { additionalProperties: false });
export type CompanyChanges = Static<typeof CompanyChanges>;

/** `POST /company`: its details (the display name is its name); `qboId` when imported from QuickBooks. */
export const NewCompany = Type.Object(
  { ...companyFields, qboId: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })) },
  { additionalProperties: false },
);
export type NewCompany = Static<typeof NewCompany>;
