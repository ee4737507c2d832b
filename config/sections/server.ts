import { z } from 'zod';

export const proxyConfigSchema = z
  .strictObject({
    header: z.string().default('x-forwarded-email').describe("The proxy's header naming the signed-in user."),
    addresses: z
      .array(z.string().min(1))
      .default([])
      .describe("The only peer addresses whose user header is believed (the proxy's own)."),
    roles: z
      .record(z.string(), z.enum(['user', 'operator', 'admin']))
      .default({})
      .describe('Roles of proxy users by name (default role: user).'),
  })
  .describe('A sign-in proxy in front (e.g. oauth2-proxy).');

/** `sheetbench serve`: sign-in, the names it answers to, and who may do what (server/README.md, "Security model"). */
export const serverConfigSchema = z
  .strictObject({
    stateDir: z
      .string()
      .default('.state/server')
      .describe('The token, cookie secret, audit log and (by default) users file live here, each file mode 0600.'),
    publicNames: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Host names (besides localhost, 127.0.0.1, [::1] and the listen address) the server answers to, e.g. ' +
          'its DNS name.',
      ),
    sessionHours: z
      .number()
      .positive()
      .default(168)
      .describe('How long a browser session (the cookie got for the token) lasts.'),
    shareLinkHours: z
      .number()
      .positive()
      .default(168)
      .describe("A share link's life when its owner does not choose one."),
    maxShareLinkHours: z.number().positive().default(720).describe('The longest life an owner may give a share link.'),
    usersFile: z
      .string()
      .optional()
      .describe(
        'A users file for small teams: one token per user, with a role (`sheetbench auth add-user`); ' +
          'default: in stateDir.',
      ),
    proxy: proxyConfigSchema.default({ header: 'x-forwarded-email', addresses: [], roles: {} }),
  })
  .describe(
    '`sheetbench serve`: sign-in, the names it answers to, and who may do what (server/README.md, "Security model").',
  );
