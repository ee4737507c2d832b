import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVISE_DISAGREEMENT_LEAD,
  REVISE_PARTIAL_LEAD,
  SECOND_PROGRAM_AGENT,
  SECOND_PROGRAM_FIX,
} from '../../analysis/conversation/crossCheckPrompts';
import { conversationLayout } from '../../analysis/conversation/layout';
import { REVISE_ANSWER_LEAD } from '../../analysis/conversation/prompts';
import { COMPUTED_LEAD } from '../../analysis/grounding/computedAnswer';
import { CHECK_FAILED_LEAD } from '../../analysis/grounding/correctnessNote';
import { withoutCheckNote } from '../../benchmarks/analysis/score';
import type { Pattern } from '../../contracts/conversation';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';
import { instructionReply, SALES_CSV } from '../helpers/analysisModel';

/**
 * The catcher of computed-but-wrong answers, end to end over real HTTP (the scripted OpenAI-compatible server, the text
 * protocol the embedded models speak), real Temporal, sandbox and tools: a second program, written independently in a
 * transcript of its own, computes the answer again. A first program that counted rows for a total is replaced by the
 * second's result; one that summed the wrong rows is revised after the disagreement; one still disagreeing gets a note;
 * agreeing programs change nothing; a second program that fails or dumps data changes nothing either.
 */
const LOAD = "import pandas as pd\ndf = pd.read_csv('sales.csv')";
const SUMS = `${LOAD}\nfor region, amount in df.groupby('region')['amount'].sum().items():\n    print(region, amount)`;
const COUNTS = `${LOAD}\nprint(df['region'].value_counts().to_string())`;
const TOTAL = `${LOAD}\nprint(df['amount'].sum())`;
const HEAD_TOTAL = `${LOAD}\nprint(df.head(2)['amount'].sum())`;
const FAILS = `${LOAD}\nprint(df['amout'].sum())`;
const DUMP = 'for i in range(1000):\n    print(i)';

const python = (code: string): ScriptedReply => ({ text: `Running it.\n\`\`\`python\n${code}\n\`\`\`` });
const isSecondProgram = (r: ScriptedRequest) =>
  r.messages[0]?.content.includes('checks results by computing them again');

/** A small model speaking the text protocol, steered by tags in the question. */
function model(r: ScriptedRequest): ScriptedReply {
  if (r.tools.length) throw new Error('the text protocol must not send native tools');
  const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const last = r.messages.at(-1)!;
  const fixes = r.messages.filter((m) => m.content === SECOND_PROGRAM_FIX).length;
  if (isSecondProgram(r)) return secondProgram(question, last.content === SECOND_PROGRAM_FIX, fixes);
  const instructed = instructionReply(r);
  if (instructed) return instructed;
  const revising = r.messages.some(
    (m) => m.role === 'user' && [REVISE_DISAGREEMENT_LEAD, REVISE_PARTIAL_LEAD].some((l) => m.content.startsWith(l)),
  );
  if (last.role === 'user' && last.content.startsWith('Result of ')) return { text: answerFor(question, revising) };
  const revisingCount = r.messages.some((m) => m.role === 'user' && m.content.startsWith(REVISE_ANSWER_LEAD));
  if (question.includes('[VC]')) return python(revisingCount ? `${COUNTS}\n# again` : COUNTS);
  if (question.includes('[HEAD]')) return python(revising ? TOTAL : HEAD_TOTAL);
  if (question.includes('[STUBBORNHEAD]')) return python(revising ? `${HEAD_TOTAL}\n# again` : HEAD_TOTAL);
  if (question.includes('[NONUM]')) return python(`${LOAD}\nprint('loaded')`);
  if (question.includes('[SAVES]'))
    return python(`${SUMS}\nsave_table(df.groupby('region', as_index=False)['amount'].sum(), title='Totals')`);
  // Asked for every value, it runs its code again (changed: code that ran already is shown, not run).
  if (question.includes('PARTIAL]') && revising) return python(`${SUMS}  # every region`);
  if (question.includes('per region')) return python(SUMS);
  return python(TOTAL);
}

/** The second program: right unless told to fail or dump. */
function secondProgram(question: string, fixing: boolean, fixes: number): ScriptedReply {
  if (question.includes('[SECONDFAILS]')) return python(`${FAILS}${'  # fixed?'.repeat(fixes)}`);
  if (question.includes('[SECONDDUMP]')) return python(DUMP);
  // Reads the first program's `df` from the kernel, which its own namespace does not have; loads it on the fix.
  if (question.includes('[PEEK]')) return python(fixing ? TOTAL : "print(df['amount'].sum())");
  return python(question.includes('per region') ? SUMS : TOTAL);
}

function answerFor(question: string, revising: boolean): string {
  // Like the 1.5B on a21: every total printed, one of them answered.
  if (question.includes('[PARTIAL]') && !revising) return 'North sold **15**.';
  if (question.includes('[STUBBORNPARTIAL]')) return 'North sold **15**.';
  if (question.includes('[VC]')) return 'North: **2**, south: **1**.';
  if (question.includes('[HEAD]') && !revising) return 'The total amount is **42**.';
  if (question.includes('[STUBBORNHEAD]')) return 'The total amount is **42**.';
  if (question.includes('[NONUM]')) return 'The file has an amount for each region.';
  if (question.includes('per region')) return 'North sold **15** and south **32**.';
  return 'The total amount is **47**.';
}

describe('cross-check: a second, independently written program', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, CaseOutcome>();
  const perRegion = (tag: string) => `What is the total amount per region in sales.csv? ${tag}`;
  const total = (tag: string) => `What is the total amount in sales.csv? ${tag}`;
  const cases: Array<[string, Pattern, string]> = [
    ['count', 'react', perRegion('[VC]')],
    ['agree', 'react', perRegion('[RIGHT]')],
    ['head', 'react', total('[HEAD]')],
    ['stubborn', 'react', total('[STUBBORNHEAD]')],
    ['nonum', 'react', total('[NONUM]')],
    // Under JIT the answer check catches the count first and asks for a revision, which counts again.
    ['auto-count', 'auto', perRegion('[VC] [JIT:react]')],
    ['ensemble', 'ensemble', perRegion('[ENSEMBLE]')],
    ['second-fails', 'react', total('[SECONDFAILS]')],
    ['second-dumps', 'react', total('[SECONDDUMP]')],
    ['peek', 'react', total('[PEEK]')],
    ['saves', 'react', perRegion('[SAVES]')],
    ['partial', 'direct', perRegion('[PARTIAL]')],
    ['stubborn-partial', 'direct', perRegion('[STUBBORNPARTIAL]')],
    ['partial-saved', 'react', perRegion('[SAVES] [STUBBORNPARTIAL]')],
  ];

  beforeAll(async () => {
    a = await startAnalysisEnv(model, { conversation: { toolCalling: 'text' } });
    outcomes = await runCases(a, cases, Buffer.from(SALES_CSV));
  }, 600_000);
  afterAll(async () => a?.close());

  const checks = (o: CaseOutcome) => o.events.filter((e) => e.type === 'step' && e.data.kind === 'cross_check');
  const requestsFor = (tag: string) =>
    a.env.llm.log.filter((e) => e.messages.some((m) => m.role === 'user' && m.content.includes(tag)));
  const secondRequests = (tag: string) =>
    requestsFor(tag).filter((e) => e.messages[0]?.content.includes('checks results by computing them again'));
  const code = (o: CaseOutcome) => o.events.filter((e) => e.type === 'code').map((e) => String(e.data.code));

  it('the second program never sees the first: its own prompt, the question, no first code, output or answer', () => {
    const seen = secondRequests('[VC]').filter((e) => !e.messages.some((m) => m.content.includes('[JIT')));
    expect(seen).toHaveLength(1);
    const text = seen[0].messages.map((m) => m.content).join('\n');
    expect(text).toContain('What is the total amount per region in sales.csv?');
    expect(text).toContain('columns: region, amount'); // the data preview
    expect(text).not.toContain('value_counts');
    expect(text).not.toContain('North: **2**');
    expect(text).not.toContain('You are a data-analysis assistant');
  });

  it("the second program is shown the user's files only, not the table, manifest or charts the first program saved", () => {
    const o = outcomes.get('saves')!;
    expect(o.events.some((e) => e.type === 'visualization')).toBe(true);
    const seen = secondRequests('[SAVES]');
    expect(seen.length).toBeGreaterThan(0);
    const system = seen[0].messages[0].content;
    expect(system).toContain('Files in the workspace: sales.csv\n');
    expect(system).not.toContain('viz/');
    expect(system).not.toMatch(/^visualization_manifest\.json:/m); // not previewed
    expect(checks(o).map((e) => String(e.data.text))).toEqual([expect.stringContaining('they agree')]);
  });

  it('rows counted for a total: the programs disagree, the operation check trusts the second, its result is shown', () => {
    const o = outcomes.get('count')!;
    expect(o.status).toBe('completed');
    expect(checks(o)).toHaveLength(1);
    expect(String(checks(o)[0].data.text)).toContain('counted rows (value_counts)');
    expect(code(o)).toEqual([COUNTS, SUMS]);
    expect(o.answer).toContain(`${COMPUTED_LEAD} (what a second, independently written program printed)`);
    expect(o.answer).toContain('> north 15');
    expect(o.answer).toContain('> south 32');
    expect(o.answer).not.toContain('**2**');
    expect(o.answer).not.toContain(CHECK_FAILED_LEAD);
    // No revision was asked for: the operation check chose.
    expect(
      requestsFor('[VC]').some((e) => e.messages.some((m) => m.content.startsWith(REVISE_DISAGREEMENT_LEAD))),
    ).toBe(false);
  });

  it('both programs agree: the answer is left as the model wrote it, one cross-check step saying so', () => {
    const o = outcomes.get('agree')!;
    expect(o.answer).toBe('North sold **15** and south **32**.');
    expect(checks(o)).toHaveLength(1);
    expect(String(checks(o)[0].data.text)).toContain('they agree');
    expect(code(o)).toEqual([SUMS, SUMS]);
  });

  it('the wrong rows summed: the disagreement goes back to the model once, with the second program; revised, they agree', () => {
    const o = outcomes.get('head')!;
    expect(o.status).toBe('completed');
    const sent = requestsFor('[HEAD]').flatMap((e) =>
      e.messages.filter((m) => m.content.startsWith(REVISE_DISAGREEMENT_LEAD)).map((m) => m.content),
    );
    expect(new Set(sent).size).toBe(1);
    expect(sent[0]).toContain(TOTAL);
    expect(sent[0]).toContain('47');
    expect(sent[0]).toContain('42');
    expect(checks(o).map((c) => String(c.data.text))).toEqual([
      expect.stringContaining('asked once to check'),
      expect.stringContaining('they agree'),
    ]);
    expect(o.answer).toBe('The total amount is **47**.');
  });

  it('still disagreeing after the revision: the answer is shown with a note the suite scorer leaves out', () => {
    const o = outcomes.get('stubborn')!;
    expect(checks(o)).toHaveLength(2);
    expect(o.answer.startsWith(`The total amount is **42**.\n\n${CHECK_FAILED_LEAD} a second program`)).toBe(true);
    expect(o.answer).toContain('```\n47\n```');
    expect(withoutCheckNote(o.answer)).toBe('The total amount is **42**.');
  });

  it("under JIT, a count the answer check could not get revised is replaced by the second program's sums", () => {
    const o = outcomes.get('auto-count')!;
    expect(o.events.filter((e) => e.type === 'step' && e.data.kind === 'revise')).toHaveLength(1);
    expect(checks(o)).toHaveLength(1);
    expect(code(o)).toEqual([COUNTS, `${COUNTS}\n# again`, SUMS]);
    expect(o.answer).toContain('> north 15');
    expect(o.answer).not.toContain('**2**');
  });

  it("ensemble: the recommended member's answer is cross-checked like any other (the members' runs are the first's)", () => {
    const o = outcomes.get('ensemble')!;
    expect(o.status).toBe('completed');
    expect(checks(o)).toHaveLength(1);
    expect(String(checks(o)[0].data.text)).toContain('they agree');
    expect(secondRequests('[ENSEMBLE]')).toHaveLength(1);
    expect(o.answer).toContain('North sold **15** and south **32**.');
  });

  it('an answer with no number of its own costs no second program', () => {
    const o = outcomes.get('nonum')!;
    expect(o.answer.startsWith('The file has an amount for each region.')).toBe(true);
    expect(checks(o)).toHaveLength(0);
    expect(secondRequests('[NONUM]')).toHaveLength(0);
  });

  it('a second program whose code keeps failing is fixed twice at most, then nothing is compared and the answer stands', () => {
    const o = outcomes.get('second-fails')!;
    expect(secondRequests('[SECONDFAILS]')).toHaveLength(3);
    expect(String(checks(o)[0].data.text)).toContain('did not run successfully');
    expect(o.answer).toBe('The total amount is **47**.');
  });

  it('a second program that dumps a thousand numbers is no evidence: nothing is compared', () => {
    const o = outcomes.get('second-dumps')!;
    expect(String(checks(o)[0].data.text)).toContain('printed 1000 numbers');
    expect(o.answer).toBe('The total amount is **47**.');
  });

  it("the second program runs in a namespace of its own: the first program's variables are not there", () => {
    const o = outcomes.get('peek')!;
    const runs = o.events.filter((e) => e.type === 'tool_result').map((e) => e.data);
    expect(runs).toHaveLength(3);
    expect(runs[1]).toMatchObject({ ok: false });
    expect(String(runs[1].error ?? runs[1].stderr)).toContain("NameError: name 'df' is not defined");
    expect(runs[2]).toMatchObject({ ok: true, stdout: '47\n' });
    // Recorded as the model wrote it.
    expect(code(o)[1]).toBe("print(df['amount'].sum())");
    expect(String(checks(o)[0].data.text)).toContain('they agree');
  });

  it('the second program is in the trace: its steps under its own agent, its tool call, the verdict record', () => {
    const o = outcomes.get('count')!;
    const layout = conversationLayout(path.join(a.env.config.conversation.dir, o.id));
    const record = JSON.parse(readFileSync(path.join(layout.turns, 't1', 'cross-check.json'), 'utf8'));
    expect(record).toMatchObject({ verdict: 'disagree', use: 'second', second: { code: SUMS } });
    const debug = JSON.parse(readFileSync(path.join(layout.debug, 't1-cross-check-1.json'), 'utf8'));
    expect(debug).toMatchObject({ kind: 'cross_check', agent: SECOND_PROGRAM_AGENT });
    expect(o.events.some((e) => e.type === 'tool_result' && String(e.data.stdout).includes('north 15'))).toBe(true);
  });

  it('an answer giving one of the totals asked (both agree on it) goes back once, with what the second program printed; revised, it gives both', () => {
    const o = outcomes.get('partial')!;
    expect(o.status).toBe('completed');
    const sent = requestsFor('[PARTIAL]').flatMap((e) =>
      e.messages.filter((m) => m.content.startsWith(REVISE_PARTIAL_LEAD)).map((m) => m.content),
    );
    expect(new Set(sent).size).toBe(1);
    expect(sent[0]).toContain('It leaves out: south.');
    expect(sent[0]).toContain('north 15\nsouth 32');
    expect(checks(o).map((c) => String(c.data.text))).toEqual([
      expect.stringContaining('leaves out 1 of the values the question asks for (south)'),
      expect.stringContaining('they agree.'),
    ]);
    expect(o.answer).toBe('North sold **15** and south **32**.');
  });

  it('still one total after the revision: the answer is shown with every value the second program computed, not flagged wrong', () => {
    const o = outcomes.get('stubborn-partial')!;
    expect(checks(o)).toHaveLength(2);
    expect(String(checks(o)[1].data.text)).toContain('Still incomplete after the revision');
    expect(o.answer.startsWith('North sold **15**.\n\n_This answer leaves out south.')).toBe(true);
    expect(o.answer).toContain('```\nnorth 15\nsouth 32\n```');
    expect(o.answer).not.toContain(CHECK_FAILED_LEAD);
  });

  it('one total answered beside a saved table holding both: complete, nothing asked again', () => {
    const o = outcomes.get('partial-saved')!;
    expect(checks(o).map((c) => String(c.data.text))).toEqual([expect.stringContaining('they agree.')]);
    expect(
      requestsFor('[STUBBORNPARTIAL]').some((e) => e.messages.some((m) => m.content.startsWith(REVISE_PARTIAL_LEAD))),
    ).toBe(true); // only the case without a table was asked
    expect(
      requestsFor('[SAVES] [STUBBORNPARTIAL]').some((e) =>
        e.messages.some((m) => m.content.startsWith(REVISE_PARTIAL_LEAD)),
      ),
    ).toBe(false);
    expect(o.answer).toBe('North sold **15**.');
  });
});
