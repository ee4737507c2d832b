/**
 * A small regex scanner for the two large, regular OOXML parts (worksheet sheetData and the shared-string table).
 * A generic XML-to-object parser spends ~50 s on a 400k-cell sheet; scanning the elements directly takes well under
 * a second. Namespace prefixes (`<x:c>`) are accepted; entities and character references are decoded.
 */

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML end-of-line handling (raw CR LF and lone CR read as LF; `&#13;` survives), then entity decoding. */
export function decodeXmlText(raw: string): string {
  const s = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (!s.includes('&') && !s.includes('<![CDATA[')) return s;
  return s.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g,
    (m, cdata: string | undefined, ent: string | undefined) => {
      if (cdata !== undefined) return cdata;
      if (ent!.startsWith('#x')) return String.fromCodePoint(parseInt(ent!.slice(2), 16));
      if (ent!.startsWith('#')) return String.fromCodePoint(parseInt(ent!.slice(1), 10));
      return ENTITIES[ent!] ?? m;
    },
  );
}

/** Attributes of a start tag's attribute text; prefixes dropped (`r:id` → `id`). */
export function attributesOf(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/(?:[\w.-]+:)?([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    attrs[m[1]] = decodeXmlText(m[2] ?? m[3]);
  return attrs;
}

export interface ScannedElement {
  attrs: string;
  body: string | undefined;
}

/** Every `<name ...>body</name>` or `<name .../>` element (optionally namespace-prefixed), not nested in itself. */
const elementPatterns = new Map<string, RegExp>();

function elementPattern(name: string): RegExp {
  let re = elementPatterns.get(name);
  if (!re) {
    re = new RegExp(`<(?:[\\w.-]+:)?${name}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, 'g');
    elementPatterns.set(name, re);
  }
  return re;
}

export function* elements(xml: string, name: string): Generator<ScannedElement> {
  for (const m of xml.matchAll(elementPattern(name))) yield { attrs: m[1] ?? '', body: m[2] };
}

/** Text of the first `<name>` child, undefined when absent; `<name/>` gives ''. */
export function childText(body: string | undefined, name: string): string | undefined {
  if (body === undefined) return undefined;
  for (const el of elements(body, name)) return el.body === undefined ? '' : decodeXmlText(el.body);
  return undefined;
}

/** openpyxl Text.content: the plain `<t>` children first, then each run's `<t>`; phonetic runs (rPh) ignored. */
export function richTextContent(body: string | undefined): string {
  if (!body) return '';
  const withoutPhonetic = body.replace(/<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, '');
  let runs = '';
  const plainPart = withoutPhonetic.replace(
    /<(?:[\w.-]+:)?r(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w.-]+:)?r>/g,
    (_m, run: string) => {
      runs += childText(run, 't') ?? '';
      return '';
    },
  );
  return (childText(plainPart, 't') ?? '') + runs;
}

/** Value of one unprefixed attribute by name (fast path for the hot cell loop); undefined when absent. */
export function attribute(attrs: string, name: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = attrs.indexOf(`${name}=`, from);
    if (at < 0) return undefined;
    const before = at === 0 ? ' ' : attrs[at - 1];
    const quote = attrs[at + name.length + 1];
    if ((before === ' ' || before === '\t' || before === '\n' || before === '\r') && (quote === '"' || quote === "'")) {
      const end = attrs.indexOf(quote, at + name.length + 2);
      return decodeXmlText(attrs.slice(at + name.length + 2, end));
    }
    from = at + 1;
  }
}

/** Text of the `<v>` child: a plain `<v>...</v>` is sliced directly, anything else goes through childText. */
export function valueText(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const open = body.indexOf('<v>');
  if (open >= 0) {
    const close = body.indexOf('</v>', open);
    if (close >= 0) return decodeXmlText(body.slice(open + 3, close));
  }
  return childText(body, 'v');
}
