import type { ShareGrant } from '../../analysis/conversation/shares';
import { ConversationError } from '../../analysis/conversation/errors';
import type { ConversationService } from '../../client/conversations';
import type { User } from '../auth/user';
import { signShareLink, verifyShareLink } from './shareLink';

/** What a valid share link opens: one conversation (or one of its turns), read-only, the debug view if granted. */
export interface SharedScope {
  conversationId: string;
  grant: ShareGrant;
  owner?: string;
  title: string;
}

/**
 * Checks a share link for the signed-in `viewer`: signature (forged or altered → 403), expiry (410), the grant it names
 * (revoked → 410), the conversation (deleted → 410, never existed → 404), and for a user's grant that the viewer is that
 * user (else 403). Each refusal says why.
 */
export async function openShare(
  service: ConversationService,
  token: string,
  viewer: User,
  secret: string,
  now = Date.now(),
): Promise<SharedScope> {
  const check = verifyShareLink(token, secret, now);
  if (!check.ok) throw new ConversationError(/expired/.test(check.reason) ? 'gone' : 'forbidden', check.reason);
  const { c: id, g: grantId, exp } = check.claims;
  const found = await service.grantOf(id, grantId);
  if (!found) throw new ConversationError('not_found', `the shared conversation ${id} does not exist`);
  if (found.deleted) throw new ConversationError('gone', 'the shared conversation was deleted by its owner');
  const grant = found.grant;
  // A link whose grant is missing, or says another expiry, was not made by this server from this grant.
  if (!grant || grant.expiresAt !== exp)
    throw new ConversationError('forbidden', 'this share link is not valid: it was altered, or forged');
  if (grant.revokedAt) throw new ConversationError('gone', `this share was revoked by its owner on ${grant.revokedAt}`);
  if ('user' in grant.to && grant.to.user !== viewer.name && viewer.role !== 'admin') {
    throw new ConversationError('forbidden', `this share is for another user: you are signed in as ${viewer.name}`);
  }
  return {
    conversationId: id,
    grant,
    title: found.title,
    ...(found.owner !== undefined ? { owner: found.owner } : {}),
  };
}

/** A grant as its owner and its viewer see it (the share routes' replies). */
export type ShareView = ReturnType<typeof shareView>;

/** A grant as its owner and its viewer see it; live grants carry their link (`/#/s/<token>`). */
export function shareView(conversationId: string, grant: ShareGrant, secret: string, now = Date.now()) {
  const live = !grant.revokedAt && (grant.expiresAt === undefined || grant.expiresAt > now);
  const token = live
    ? signShareLink(
        { c: conversationId, g: grant.id, ...(grant.expiresAt !== undefined ? { exp: grant.expiresAt } : {}) },
        secret,
      )
    : undefined;
  return {
    ...grant,
    ...(grant.expiresAt !== undefined ? { expires: new Date(grant.expiresAt).toISOString() } : {}),
    status: grant.revokedAt ? 'revoked' : live ? 'live' : 'expired',
    ...(token ? { token, url: `/#/s/${token}` } : {}),
  };
}
