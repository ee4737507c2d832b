/** Font colours as evaluation.py's `_get_color_rgb` resolves them (Office default theme, tint, alpha ignored). */

/** openpyxl's `Color` as read from a `<color>` element: the first of indexed, theme, auto, rgb that is set. */
export type FontColour =
  | { type: 'rgb'; rgb: string }
  | { type: 'theme'; theme: number; tint: number }
  | { type: 'indexed'; indexed: number }
  | { type: 'auto' };

const OFFICE_THEME = [
  'FFFFFF',
  '000000',
  'E7E6E6',
  '44546A',
  '4472C4',
  'ED7D31',
  'A5A5A5',
  'FFC000',
  '5B9BD5',
  '70AD47',
];

const clampByte = (x: number) => Math.min(255, Math.max(0, x));
const hex2 = (x: number) => x.toString(16).toUpperCase().padStart(2, '0');

function tinted(base: string, tint: number): string {
  const channels = [0, 2, 4].map((i) => parseInt(base.slice(i, i + 2), 16));
  const moved = channels.map((c) => Math.trunc(tint > 0 ? c + (255 - c) * tint : c * (1 + tint)));
  return moved.map((c) => hex2(clampByte(c))).join('');
}

/** `_get_color_rgb`: aRGB text; a missing, indexed, auto or out-of-theme colour is "00000000". */
export function colourRgb(colour: FontColour | null): string {
  if (!colour) return '00000000';
  if (colour.type === 'rgb') return colour.rgb;
  if (colour.type !== 'theme') return '00000000';
  const base = OFFICE_THEME[colour.theme];
  if (colour.theme < 0 || base === undefined) return '00000000';
  return 'FF' + (colour.tint !== 0 ? tinted(base, colour.tint) : base);
}

/** `_compare_colors`: the last six characters (RGB) equal. */
export function sameFontColour(a: FontColour | null, b: FontColour | null): boolean {
  return colourRgb(a).slice(-6) === colourRgb(b).slice(-6);
}
