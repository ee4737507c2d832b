/**
 * The scaffold's rules without a model or a sandbox: the templates as the release's YAML holds them, SWE-agent's
 * parser and blocklist, the observation cut to head and tail with the elided count, and the episode's limits
 * (50 model calls, 3 unrunnable replies per turn, 3 time-outs in a row).
 */
import { describe, expect, it } from 'vitest';
import { TextActionProvider } from '../../lib/llm';
import type { ChatRequest, ChatResponse, LlmProvider } from '../../lib/llm/types';
import { scaffoldConfigFor, upstreamToolScripts } from '../../benchmarks/spreadsheetbench2/scaffold/config';
import {
  afterStep,
  beforeModelCall,
  startEpisode,
  type EpisodeLimits,
  type EpisodeState,
  type StepOutcome,
} from '../../benchmarks/spreadsheetbench2/scaffold/episode';
import {
  instanceMessage,
  observationMessage,
  timeoutMessage,
} from '../../benchmarks/spreadsheetbench2/scaffold/prompts';
import {
  formatErrorMessage,
  parseAction,
  SCAFFOLD_TOOLS,
  shlexQuote,
  shouldBlock,
} from '../../benchmarks/spreadsheetbench2/scaffold/swePorts';

const { config } = scaffoldConfigFor('Financial_Model');
const LIMITS: EpisodeLimits = { maxModelCalls: 50, maxRequeries: 3, maxConsecutiveTimeouts: 3 };
const call = (name: string, args: unknown, id = 'c1') => ({
  text: 'thinking',
  toolCalls: [{ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
});

describe('the release configuration', () => {
  it('has the paper limits and picks visualisation.yaml for Visualization only', () => {
    expect(config.max_observation_length).toBe(10_000);
    expect(config.tools.execution_timeout).toBe(60);
    expect(config.tools.max_consecutive_execution_timeouts).toBe(3);
    expect(config.per_instance_call_limit).toBe(50);
    expect(scaffoldConfigFor('Visualization').name).toBe('visualisation');
    expect(scaffoldConfigFor('Visualization').config.instance_template).toContain('**Pivot table construction**');
    expect(scaffoldConfigFor('Debugging').name).toBe('spreadsheet');
    expect(upstreamToolScripts().submit.trim()).toBe('echo "<<SWE_AGENT_SUBMISSION>>"');
  });

  it('renders the instance message with the instruction and both paths', () => {
    const text = instanceMessage(config, {
      instruction: 'Fill {{C2}} with totals',
      spreadsheet_path: '/job/spreadsheet_data/spreadsheet/x/input.xlsx',
      output_path: '/job/spreadsheet_output/7_output.xlsx',
    });
    expect(text).toContain('**Instruction:** Fill {{C2}} with totals');
    expect(text).toContain('- List all sheets: `view_xlsx /job/spreadsheet_data/spreadsheet/x/input.xlsx list`');
    expect(text).toContain('**Output Path:** /job/spreadsheet_output/7_output.xlsx');
    expect(text).not.toMatch(/\{\{(spreadsheet_path|output_path|instruction)\}\}/);
  });
});

describe('SWE-agent function calling', () => {
  it('offers bash, submit and view_xlsx in that order', () => {
    expect(SCAFFOLD_TOOLS.map((t) => t.function.name)).toEqual(['bash', 'submit', 'view_xlsx']);
    expect(SCAFFOLD_TOOLS[2].function.parameters).toMatchObject({ required: ['file_path'] });
  });

  it('turns a call into the command line SWE-agent runs (strings shell-quoted, bash as written)', () => {
    expect(parseAction(call('bash', { command: '  ls -la /job  ' }))).toEqual({
      ok: true,
      action: 'ls -la /job',
      toolCallId: 'c1',
    });
    expect(
      parseAction(call('view_xlsx', { file_path: '/job/a b.xlsx', sheet: "P&L '24", start_row: 3 })),
    ).toMatchObject({ ok: true, action: `view_xlsx '/job/a b.xlsx'  'P&L '"'"'24' 3` });
    expect(parseAction(call('submit', {}))).toMatchObject({ ok: true, action: 'submit' });
    expect(shlexQuote('/job/x.xlsx')).toBe('/job/x.xlsx');
  });

  it('names what cannot be run, as its parser does', () => {
    expect(parseAction({ text: 'no call' })).toMatchObject({ ok: false, code: 'missing' });
    expect(
      parseAction({
        text: '',
        toolCalls: [call('submit', {}).toolCalls[0], call('submit', {}, 'c2').toolCalls[0]],
      }),
    ).toMatchObject({ ok: false, code: 'multiple' });
    expect(parseAction(call('python', { code: '1' }))).toMatchObject({
      ok: false,
      code: 'invalid_command',
      message: "Command 'python' not found in list of available commands.",
    });
    expect(parseAction(call('bash', '{not json'))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parseAction(call('bash', {}))).toMatchObject({
      ok: false,
      code: 'missing_arg',
      message: 'Required argument(s) missing: command',
    });
    expect(parseAction(call('submit', { now: true }))).toMatchObject({ ok: false, code: 'unexpected_arg' });
    expect(parseAction(call('bash', { command: 'vim' }))).toMatchObject({
      ok: false,
      code: 'blocked',
      message: "Operation 'vim' is not supported by this environment.",
    });
    expect(formatErrorMessage('missing', '')).toMatch(/^Your last output did not use any tool calls!\n/);
    expect(formatErrorMessage('invalid_json', 'Tool call arguments are not valid JSON.')).toBe(
      'Your action could not be parsed properly: Tool call arguments are not valid JSON..\n',
    );
  });

  it('blocks as should_block_action does (prefixes of blocklist entries, standalone interpreters)', () => {
    for (const a of ['python3', 'bash', 'nano', 'tail -f', 'les', 'make']) expect(shouldBlock(a)).toBe(true);
    for (const a of ['python3 x.py', 'ls', 'make all', 'tail -n 5 f', 'cat f | less'])
      expect(shouldBlock(a)).toBe(false);
  });
});

describe('the text action protocol (the embedded models, which have no native tool calling)', () => {
  const replying = (text: string): LlmProvider & { seen: ChatRequest[] } => {
    const seen: ChatRequest[] = [];
    return {
      name: 'fake',
      seen,
      complete: (request) => {
        seen.push(request);
        const reply: ChatResponse = {
          text,
          finishReason: 'stop',
          usage: { inputTokens: 1, outputTokens: 1 },
          model: 'm',
          cached: false,
        };
        return Promise.resolve(reply);
      },
    };
  };
  const ask = async (text: string) => {
    const inner = replying(text);
    const reply = await new TextActionProvider(inner).complete({
      model: 'm',
      messages: [{ role: 'user', content: 'task' }],
      tools: SCAFFOLD_TOOLS,
    });
    return { action: parseAction(reply), prompt: inner.seen[0].messages.map((m) => m.content).join('\n') };
  };

  it('describes the three tools in the prompt and reads the forms small models write as their calls', async () => {
    const block = await ask(
      '```action\n{"tool": "view_xlsx", "args": {"file_path": "/job/in.xlsx", "mode": "list"}}\n```',
    );
    expect(block.prompt).toContain('- view_xlsx: view the content of an xlsx file.');
    expect(block.action).toMatchObject({ ok: true, action: 'view_xlsx /job/in.xlsx list' });
    expect((await ask('{"name": "bash", "arguments": {"command": "ls /job"}}')).action).toMatchObject({
      ok: true,
      action: 'ls /job',
    });
    expect((await ask('```bash\npython3 /tmp/s.py\n```')).action).toMatchObject({
      ok: true,
      action: 'python3 /tmp/s.py',
    });
    expect((await ask('I am done.')).action).toMatchObject({ ok: false, code: 'missing' });
  });
});

describe('observations', () => {
  it('shows short output whole, empty output as the no-output warning', () => {
    const whole = (t: string) => ({ whole: t, head: t, tail: t, length: t.length, blank: !t.trim() });
    expect(observationMessage(config, whole('ok\n'))).toBe('<observation>\nok\n\n</observation>');
    expect(observationMessage(config, whole(' \n'))).toContain('did not produce any output');
  });

  it('cuts output over 10,000 characters to 5,000 at each end and says how many were elided', () => {
    const text = 'h'.repeat(5_000) + 'm'.repeat(2_345) + 't'.repeat(5_000);
    const shown = observationMessage(config, {
      whole: null,
      head: text.slice(0, 5_000),
      tail: text.slice(-5_000),
      length: text.length,
      blank: false,
    });
    expect(shown).toContain(`<observation_head>\n${'h'.repeat(5_000)}\n</observation_head>`);
    expect(shown).toContain('<elided_chars>\n2345 characters elided\n</elided_chars>');
    expect(shown).toContain(`<observation_tail>\n${'t'.repeat(5_000)}\n</observation_tail>`);
    expect(shown).not.toContain('mmmm');
  });

  it('words a cancelled command as the release does', () => {
    expect(timeoutMessage(config, 'sleep 600')).toBe(
      "<warning>\nThe command 'sleep 600' was cancelled because it took more than 60 seconds to complete.\n</warning>",
    );
  });
});

describe('the episode', () => {
  const play = (outcomes: StepOutcome[]): EpisodeState => {
    let s = startEpisode();
    for (const o of outcomes) {
      s = beforeModelCall(s, LIMITS);
      if (s.exit) return s;
      s = afterStep(s, o, LIMITS);
      if (s.exit) return s;
    }
    return beforeModelCall(s, LIMITS);
  };
  const ran = (over: Partial<Extract<StepOutcome, { kind: 'ran' }>> = {}): StepOutcome => ({
    kind: 'ran',
    timedOut: false,
    submitted: false,
    ...over,
  });

  it('ends on submit', () => {
    expect(play([ran(), ran({ submitted: true })])).toMatchObject({ exit: 'submitted', modelCalls: 2, turn: 2 });
  });

  it('ends after the 50th model call, requeries included', () => {
    const s = play([{ kind: 'unrunnable' }, ...Array.from({ length: 60 }, () => ran())]);
    expect(s).toMatchObject({ exit: 'exit_cost', modelCalls: 50, turn: 49 });
  });

  it('requeries an unrunnable reply twice, then ends with exit_format', () => {
    const recovered = play([{ kind: 'unrunnable' }, { kind: 'unrunnable' }, ran()]);
    expect(recovered).toMatchObject({ turn: 1, attempt: 0, modelCalls: 3 });
    expect(recovered.exit).toBeUndefined();
    expect(play([{ kind: 'unrunnable' }, { kind: 'unrunnable' }, { kind: 'unrunnable' }])).toMatchObject({
      exit: 'exit_format',
      modelCalls: 3,
    });
  });

  it('ends at the third time-out in a row; a command that completes resets the count', () => {
    const t = ran({ timedOut: true });
    const reset = play([t, t, ran(), t, t, ran()]);
    expect(reset).toMatchObject({ consecutiveTimeouts: 0, turn: 6 });
    expect(reset.exit).toBeUndefined();
    expect(play([t, t, t, ran()])).toMatchObject({ exit: 'exit_command_timeout', modelCalls: 3 });
  });
});
