/**
 * Code extraction as the official harness does it: the text after the first "```python" up to the next "```",
 * newline-trimmed; without a python block, the whole reply is the code. Pure: also used inside workflows.
 */
export function extractPythonCode(reply: string): string {
  const start = reply.indexOf('```python');
  if (start < 0) return trimNewlines(reply);
  const body = reply.slice(start + '```python'.length);
  const end = body.indexOf('```');
  return trimNewlines(end < 0 ? body : body.slice(0, end));
}

export function hasPythonBlock(reply: string): boolean {
  return reply.includes('```python');
}

function trimNewlines(s: string): string {
  return s.replace(/^\n+|\n+$/g, '');
}
