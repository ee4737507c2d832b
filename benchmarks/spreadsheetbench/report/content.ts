/** Message content as text: strings as they are, content-part arrays joined, anything else as JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => partText(part)).join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content, null, 2);
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string') return part.text;
  return JSON.stringify(part);
}
