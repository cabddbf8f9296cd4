import { Type } from '@sinclair/typebox';
import { MESSAGES } from '../domain/refusals';

export const Email = Type.String({ format: 'email', maxLength: 254 });

export const MessageResult = Type.Object({ result: Type.Object({ message: Type.String() }) });

const Text = (max = 200) => Type.String({ maxLength: max });
const EmailField = Type.String({ format: 'email', maxLength: 254, 'x-message': MESSAGES.invalidEmail });

export const NewUserBody = Type.Object(
  {
    permissions: Type.Union([Type.Literal('customer'), Type.Literal('admin')], {
      'x-message': "must be 'customer' or 'admin'",
    }),
    email: EmailField,
    firstName: Type.Optional(Text()),
    lastName: Type.Optional(Text()),
    displayName: Type.Optional(Text()),
    phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
    ownCompany: Type.Optional(Text()),
    CompanyId: Type.Optional(Type.String({ maxLength: 50 })),
    qboId: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    sendWelcomeEmail: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** PUT /user/{id} fields other than the password (Suspend / Enable and the profile: `UserChanges`). */
export const UserChangeFields = {
  active: Type.Optional(Type.Boolean()),
  firstName: Type.Optional(Text()),
  lastName: Type.Optional(Text()),
  displayName: Type.Optional(Text()),
  phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
  email: Type.Optional(EmailField),
  ownCompany: Type.Optional(Text()),
  CompanyId: Type.Optional(Type.String({ maxLength: 50 })),
};

export const WelcomeBody = Type.Object({ email: EmailField }, { additionalProperties: false });

export const Deleted = Type.Object({ result: Type.Object({ id: Type.String(), message: Type.String() }) });
