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

/** Code for agents that must not execute prose: a python block, else an unlabelled block; otherwise why there is none. */
export function extractCodeOrProblem(
  reply: string,
): { code: string; problem?: undefined } | { code?: undefined; problem: string } {
  if (hasPythonBlock(reply)) {
    const code = extractPythonCode(reply);
    return code.trim() ? { code } : { problem: 'reply has an empty python block' };
  }
  const fence = /```([^\n`]*)\n([\s\S]*?)```/.exec(reply);
  if (fence && !fence[1].trim() && fence[2].trim()) return { code: trimNewlines(fence[2]) };
  if (fence && fence[1].trim())
    return { problem: `reply has code in the wrong language (\`\`\`${fence[1].trim()}), not python` };
  return { problem: reply.trim() ? 'reply has no code block' : 'reply is empty' };
}
