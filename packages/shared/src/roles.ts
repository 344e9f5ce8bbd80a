import { z } from 'zod';

/** Team roles, lowest to highest privilege. */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

const rank: Record<Role, number> = { viewer: 0, operator: 1, approver: 2, admin: 3 };

/** Whether `role` grants at least the privileges of `required`. */
export function roleAtLeast(role: Role, required: Role): boolean {
  return rank[role] >= rank[required];
}

/** The lower of two roles (a token never exceeds its creator's current role). */
export function minRole(a: Role, b: Role): Role {
  return rank[a] <= rank[b] ? a : b;
}
