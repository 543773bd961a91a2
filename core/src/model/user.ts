// User of the identity provider. The record uses the identity provider's camelCase names (spec's User
// table); create/update bodies use snake_case first_name/last_name.
import { z } from 'zod';
import { TenantId, Uuid } from './common.js';
import { RoleName } from './role.js';
import { secret } from './secret.js';

export const Username = z
  .string()
  .min(3)
  .max(255)
  .regex(/^[^\s]+$/, 'must not contain whitespace');

/** RFC 5322 addr-spec without comments or folding (local part, @, domain). */
export const Email = z.email({ pattern: z.regexes.rfc5322Email, error: 'must be a valid e-mail address' }).max(320);

export const Password = secret(z.string().min(8).max(256));
const PersonName = z.string().min(1).max(255);

export const UserCreate = z.object({
  username: Username,
  email: Email,
  password: Password,
  first_name: PersonName,
  last_name: PersonName,
  /** The caller's tenant when absent; another tenant needs super-admin. */
  tenant_id: TenantId.optional(),
});
export type UserCreate = z.infer<typeof UserCreate>;

/** Any of username, email, first_name, last_name; the password is not changed here. */
export const UserUpdate = z.object({
  username: Username.optional(),
  email: Email.optional(),
  first_name: PersonName.optional(),
  last_name: PersonName.optional(),
});
export type UserUpdate = z.infer<typeof UserUpdate>;

/** An administrator sets a user's password; a temporary one must be changed at the next login. */
export const UserPasswordReset = z.object({
  password: Password,
  temporary: z.boolean().default(true),
});
export type UserPasswordReset = z.infer<typeof UserPasswordReset>;

/** The user as returned by the admin API. */
export const User = z.object({
  id: Uuid,
  username: Username,
  email: Email,
  firstName: z.string().max(255).default(''),
  lastName: z.string().max(255).default(''),
  /** false = blocked. */
  enabled: z.boolean().default(true),
  /** false at creation. */
  emailVerified: z.boolean().default(false),
  /** Unix ms. */
  createdTimestamp: z.number().int().min(0),
  /** The identity provider attribute `tenant_id`. */
  tenant_id: TenantId.nullable().default(null),
  roles: z.array(RoleName).default([]),
});
export type User = z.infer<typeof User>;
