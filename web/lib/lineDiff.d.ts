export function lineDiff(before: string, after: string): Array<{ op: ' ' | '+' | '-'; line: string }>;
