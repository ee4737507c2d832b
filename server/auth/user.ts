/** Who is calling, as the routes see it. */
export const ROLES = ['user', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface User {
  name: string;
  role: Role;
  /** How the request proved it: the Bearer header, the session cookie, the trusted proxy's header, or no sign-in (--no-auth). */
  via: 'bearer' | 'cookie' | 'proxy' | 'none';
}

/** The hono environment of routes behind sign-in: `c.get('user')`. */
export interface AuthEnv {
  Variables: { user: User };
}

const RANK: Record<Role, number> = { user: 0, operator: 1, admin: 2 };

export const hasRole = (user: User, role: Role): boolean => RANK[user.role] >= RANK[role];

/** A conversation is its owner's; an admin sees all (ones from before owners existed have none: admins only). */
export const mayAccess = (user: User, owner: string | undefined): boolean =>
  user.role === 'admin' || (owner !== undefined && owner === user.name);
