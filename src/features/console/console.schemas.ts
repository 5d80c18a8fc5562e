import { Type, type Static } from 'typebox';

/**
 * One object rather than a union: the body validator drops unknown properties, and with a union it would
 * drop the fields of every branch but the first. The service checks which fields the role needs.
 */
export const SignInBody = Type.Object(
  {
    role: Type.Union([Type.Literal('agency'), Type.Literal('client')]),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'agency: the Hosting API key' })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'client: its username' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'client: its password' })),
  },
  { additionalProperties: false },
);
export type SignInInput = Static<typeof SignInBody>;

export const SessionSchema = Type.Object({
  role: Type.Union([Type.Literal('agency'), Type.Literal('client')]),
  clientId: Type.Union([Type.String(), Type.Null()], { description: 'the signed-in client; null for the agency' }),
  csrfToken: Type.String({ description: 'send it as X-CSRF-Token with every change' }),
  expiresAt: Type.String({ description: 'absolute end of the session (ISO time); it also ends after 30 idle minutes' }),
});
