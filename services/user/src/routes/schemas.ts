import { Type } from '@sinclair/typebox';

export const UserView = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.String(),
  active: Type.Boolean(),
  ownCompany: Type.Union([Type.String(), Type.Null()]),
  CompanyId: Type.Union([Type.String(), Type.Null()]),
  qboId: Type.Union([Type.String(), Type.Null()]),
});

/** Spec §3: the session user also holds a customer's active cart. */
export const SessionCart = Type.Object({
  id: Type.String(),
  cartName: Type.String(),
  cartTotal: Type.Number(),
});
export const SessionUserView = Type.Intersect([
  UserView,
  Type.Object({ cart: Type.Optional(Type.Union([SessionCart, Type.Null()])) }),
]);

export const Email = Type.String({ format: 'email', maxLength: 254 });

export const MessageResult = Type.Object({ result: Type.Object({ message: Type.String() }) });
