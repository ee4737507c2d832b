/**
 * What SWE-agent adds around the paper's configuration, ported from its source (RUCKBReasoning/SpreadsheetBench-2 at
 * 599b24a): the tools as function-calling specs (`Command.get_function_calling_tool`, bash first, then the bundles in
 * config order: submit, view_xlsx), a tool call turned into the shell command it runs (`invoke_format`, string
 * arguments shell-quoted except bash's), the function-calling parser's errors (`FunctionCallingParser`), the action
 * blocklist (`ToolFilterConfig`, `should_block_action`) and the requery templates. Pure: no I/O.
 */
import type { ToolCall, ToolSpec } from '../../../lib/llm/types';

interface Argument {
  name: string;
  type: 'string' | 'integer';
  description: string;
  required: boolean;
}

interface Command {
  name: string;
  docstring: string;
  /** `invoke_format`: the signature with `<arg>` / `[<arg>]` replaced by the argument. */
  invoke: string[];
  arguments: Argument[];
}

/** sweagent/tools/commands.py BASH_COMMAND; tools/submit/config.yaml; tools/view_xlsx/config.yaml. */
const COMMANDS: Command[] = [
  {
    name: 'bash',
    docstring: 'runs the given command directly in bash',
    invoke: ['command'],
    arguments: [{ name: 'command', type: 'string', description: 'The bash command to execute.', required: true }],
  },
  { name: 'submit', docstring: 'submits the current file', invoke: [], arguments: [] },
  {
    name: 'view_xlsx',
    docstring:
      "view the content of an xlsx file. Can list all sheets or view a specific sheet's contents with optional row range",
    invoke: ['file_path', 'mode', 'sheet', 'start_row', 'end_row'],
    arguments: [
      { name: 'file_path', type: 'string', description: 'the path to the xlsx file to view', required: true },
      {
        name: 'mode',
        type: 'string',
        description: "mode to use: 'list' to list all sheet names, 'content' to view sheet contents (default: content)",
        required: false,
      },
      {
        name: 'sheet',
        type: 'string',
        description: 'sheet name to view (if not provided, views the first visible sheet)',
        required: false,
      },
      {
        name: 'start_row',
        type: 'integer',
        description:
          'starting row number to view (1-based index, if not provided, starts from the first row with data)',
        required: false,
      },
      {
        name: 'end_row',
        type: 'integer',
        description: 'ending row number to view (1-based index, if not provided, views until the last row with data)',
        required: false,
      },
    ],
  },
];

/** The `tools` of every request, as SWE-agent sends them. */
export const SCAFFOLD_TOOLS: ToolSpec[] = COMMANDS.map((c) => ({
  type: 'function',
  function: {
    name: c.name,
    description: c.docstring,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(c.arguments.map((a) => [a.name, { type: a.type, description: a.description }])),
      required: c.arguments.filter((a) => a.required).map((a) => a.name),
    },
  },
}));

export type ParsedAction =
  { ok: true; action: string; toolCallId: string } | { ok: false; code: FormatErrorCode; message: string };

export type FormatErrorCode =
  'missing' | 'multiple' | 'invalid_command' | 'invalid_json' | 'missing_arg' | 'unexpected_arg' | 'blocked';

/** `FunctionCallingParser.__call__`: exactly one tool call, of a known command, with valid arguments → its command line. */
export function parseAction(reply: { text: string; toolCalls?: ToolCall[] }): ParsedAction {
  const calls = reply.toolCalls ?? [];
  if (calls.length !== 1) {
    const message = `Expected exactly one tool call in model response - received ${calls.length} tool calls with message: ${reply.text}`;
    return { ok: false, code: calls.length === 0 ? 'missing' : 'multiple', message };
  }
  const call = calls[0];
  const command = COMMANDS.find((c) => c.name === call.name);
  if (!command)
    return {
      ok: false,
      code: 'invalid_command',
      message: `Command '${call.name}' not found in list of available commands.`,
    };
  let values: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    values = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, code: 'invalid_json', message: 'Tool call arguments are not valid JSON.' };
  }
  const missing = command.arguments.filter((a) => a.required && !(a.name in values)).map((a) => a.name);
  if (missing.length)
    return { ok: false, code: 'missing_arg', message: `Required argument(s) missing: ${missing.join(', ')}` };
  const extra = Object.keys(values).filter((k) => !command.arguments.some((a) => a.name === k));
  if (extra.length)
    return { ok: false, code: 'unexpected_arg', message: `Unexpected argument(s): ${extra.join(', ')}` };
  const action = invoke(command, values);
  if (shouldBlock(action))
    return {
      ok: false,
      code: 'blocked',
      message: `Operation '${action.trim()}' is not supported by this environment.`,
    };
  return { ok: true, action, toolCallId: call.id };
}

/** `invoke_format.format(**formatted_args).strip()`: strings quoted as `shlex.quote` (not bash's), None as "". */
function invoke(command: Command, values: Record<string, unknown>): string {
  if (command.name === 'bash') return String(values.command ?? '').trim();
  const parts = command.invoke.map((name) => (name in values ? argumentText(values[name]) : ''));
  return [command.name, ...parts].join(' ').trim();
}

function argumentText(value: unknown): string {
  if (typeof value === 'string') return shlexQuote(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Python's shlex.quote. */
export function shlexQuote(s: string): string {
  if (s === '') return "''";
  if (!/[^\w@%+=:,./-]/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

/** sweagent/tools/tools.py ToolFilterConfig defaults (the paper's configs set no filter). */
const BLOCKLIST = ['vim', 'vi', 'emacs', 'nano', 'nohup', 'gdb', 'less', 'tail -f', 'python -m venv', 'make'];
const BLOCKLIST_STANDALONE = [
  'python',
  'python3',
  'ipython',
  'bash',
  'sh',
  '/bin/bash',
  '/bin/sh',
  'nohup',
  'vi',
  'vim',
  'emacs',
  'nano',
  'su',
];

/** `ToolHandler.should_block_action`, as written (a blocklist entry that starts with the action blocks it). */
export function shouldBlock(action: string): boolean {
  const a = action.trim();
  if (!a) return false;
  if (BLOCKLIST.some((f) => f.startsWith(a))) return true;
  if (BLOCKLIST_STANDALONE.includes(a)) return true;
  const name = a.split(/\s+/)[0];
  if ((name === 'radare2' || name === 'r2') && !/\b(?:radare2)\b.*\s+-c\s+.*/.test(a)) return true;
  return false;
}

/** `FunctionCallingParser.error_message` rendered by Jinja for an error (the requery's user message). */
export function formatErrorMessage(code: FormatErrorCode, message: string): string {
  if (code === 'blocked') return message;
  if (code === 'missing')
    return [
      'Your last output did not use any tool calls!',
      'Please make sure your output includes exactly _ONE_ function call!',
      'You must invoke the function directly using the function call format.',
      'You cannot invoke commands with ```, you have to use the function call format.',
      'If you think you have already resolved the issue, please submit your changes by running the `submit` command.',
      'If you think you cannot solve the problem, please run `exit_forfeit` (if available) or `submit`.',
      'Else, please continue with a new tool call!',
    ].join('\n');
  if (code === 'multiple')
    return 'Your last output included multiple tool calls!\nPlease make sure your output includes a thought and exactly _ONE_ function call.';
  if (code === 'unexpected_arg')
    return `Your action could not be parsed properly: ${message}.\nMake sure your function call doesn't include any extra arguments that are not in the allowed arguments, and only use the allowed commands.`;
  return `Your action could not be parsed properly: ${message}.\n`;
}

/** `TemplateConfig.shell_check_error_template` (the default: the paper's configs do not set it). */
export function shellCheckErrorMessage(stdout: string, stderr: string): string {
  return (
    'Your bash command contained syntax errors and was NOT executed. ' +
    'Please fix the syntax errors and try again. This can be the result ' +
    'of not adhering to the syntax for multi-line commands. Here is the output of `bash -n`:\n' +
    `${stdout}\n${stderr}`
  );
}

/** The token tools/submit/bin/submit prints; an observation holding it ends the episode (`check_for_submission_cmd`). */
export const SUBMISSION_TOKEN = '<<SWE_AGENT_SUBMISSION>>';
