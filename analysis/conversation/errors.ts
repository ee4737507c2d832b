/** A conversation request refused with a reason; the API maps the kind to an HTTP status. */
/**
 * `empty`: the conversation has nothing the request can use (an export of code that never ran cleanly). `forbidden` and
 * `gone`: a share link that is not valid or not the caller's, and one that ended (expired, revoked, its conversation deleted).
 */
export type ConversationErrorKind =
  'bad_input' | 'forbidden' | 'not_found' | 'busy' | 'empty' | 'gone' | 'too_large' | 'refused_type' | 'unavailable';

export class ConversationError extends Error {
  override name = 'ConversationError';
  constructor(
    readonly kind: ConversationErrorKind,
    message: string,
  ) {
    super(message);
  }
}
