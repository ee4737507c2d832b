/**
 * A scripted model that drives SpreadsheetBench 2's scaffold on the tasks of test/spreadsheetbench2/fixtures/
 * make_v2_tasks.py: per task a fixed sequence of tool calls chosen by how many tool results the conversation holds.
 * Solver tasks look at the input (view_xlsx), write a script to /tmp, change directory and export a variable in one
 * step, run the script (relying on both) in the next, then submit; one converts its output with LibreOffice first; one first replies with no tool call (a requery).
 * The hostile task tries the network, files outside its folder, a fork bomb and a 10-minute sleep, leaves a link to a
 * host file as its output, then submits.
 */
import type { Script, ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';

/** Cells the answer has and the input lacks, per task (make_v2_tasks.py's specs). */
const SOLUTIONS: Record<string, { sheet: string; cells: Record<string, string | number> }> = {
  fm0: {
    sheet: 'Model',
    cells: {
      ...Object.fromEntries([1, 2, 3, 4, 5].map((r) => [`C${r}`, r * 10 * (r * 2.5)])),
      C6: '#DIV/0!',
    },
  },
  tpl0: { sheet: 'Template', cells: { B2: 91.5, B3: 'N/A' } },
  vis0: { sheet: 'Data ', cells: { D1: 'Total', D2: 150 } },
  dbg_plain: { sheet: 'Sheet1', cells: { B4: 7.25 } },
  dbg_embedded: {
    sheet: 'Sheet1',
    cells: Object.fromEntries([1, 2, 3, 4, 5].map((r) => [`C${r}`, `=A${r}*B${r}`])),
  },
};

export const SCAFFOLD_SOLVED_TASKS = Object.keys(SOLUTIONS);
/** The task that also recalculates its output with LibreOffice inside the sandbox before it submits. */
export const SCAFFOLD_LIBREOFFICE_TASK = 'dbg_plain';
export const SCAFFOLD_HOSTILE_TASK = 'tpl_allnew';
/** The task whose first reply has no tool call (SWE-agent requeries it). */
export const SCAFFOLD_REQUERY_TASK = 'fm0';

export interface HostileTargets {
  /** A host file the agent must not read (the task's answer). */
  answerPath: string;
  /** A host folder it must not list (the checkout). */
  repoDir: string;
  /** A host service it must not reach (the scripted model's own port). */
  hostUrl: string;
}

const call = (name: string, args: Record<string, unknown>, text = ''): ScriptedReply => ({
  text,
  toolCalls: [{ name, arguments: args }],
});
const bash = (command: string, text = '') => call('bash', { command }, text);

function taskOf(request: ScriptedRequest) {
  const instance = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const id = /\*\*Instruction:\*\* do (\S+)/.exec(instance)?.[1] ?? '';
  const input = /\*\*Input File:\*\* (\S+)/.exec(instance)?.[1] ?? '';
  const output = /\*\*Output Path:\*\* (\S+)/.exec(instance)?.[1] ?? '';
  return { id, input, output };
}

function solverScript(id: string): string {
  const s = SOLUTIONS[id];
  return [
    'import os, openpyxl',
    'wb = openpyxl.load_workbook(os.environ["SOLVE_IN"])',
    `ws = wb[${JSON.stringify(s.sheet)}]`,
    `for ref, v in ${JSON.stringify(s.cells)}.items():`,
    '    ws[ref] = v',
    'wb.save(os.environ["SOLVE_OUT"])',
    'print("saved", os.environ["SOLVE_OUT"], "from", os.getcwd())',
  ].join('\n');
}

function solverStep(id: string, turn: number, paths: { input: string; output: string }): ScriptedReply {
  const steps = [
    () => call('view_xlsx', { file_path: paths.input, mode: 'list' }, 'Let me look at the sheets.'),
    () => bash(`cat > /tmp/solve.py << 'EOF'\n${solverScript(id)}\nEOF`),
    () => bash(`cd /tmp && export SOLVE_IN=${paths.input} SOLVE_OUT=${paths.output}`),
    () => bash('python3 solve.py'),
    ...(id === SCAFFOLD_LIBREOFFICE_TASK
      ? [
          () =>
            bash(
              'soffice --headless --convert-to xlsx --outdir /tmp/lo "$SOLVE_OUT" 2>&1 | grep -v javaldx; ls /tmp/lo',
            ),
        ]
      : []),
    () => call('submit', {}),
  ];
  return (steps[turn] ?? steps[steps.length - 1])();
}

function hostileStep(turn: number, t: HostileTargets, output: string): ScriptedReply {
  const steps = [
    () =>
      bash(
        `python3 -c "import urllib.request as u; u.urlopen('${t.hostUrl}/v1/models', timeout=5)" 2>&1 | tail -1; ` +
          `python3 -c "import socket; socket.create_connection(('1.1.1.1', 80), timeout=5)" 2>&1 | tail -1`,
      ),
    () =>
      bash(
        `cat /etc/shadow 2>&1; cat '${t.answerPath}' 2>&1 | head -c 200; ls '${t.repoDir}' 2>&1; ` +
          `find / -name 'answer.xlsx' -not -path '/proc/*' 2>/dev/null | head; echo read-done`,
      ),
    () => bash(':(){ :|:& };:'),
    () => bash('sleep 600'),
    () => bash('echo alive; ls /job'),
    // An output that is a link to a host file: never taken.
    () => bash(`ln -s /etc/passwd ${output}`),
    () => call('submit', {}),
  ];
  return (steps[turn] ?? steps[steps.length - 1])();
}

export function scaffoldScript(targets: HostileTargets, opts: { delayMs?: number } = {}): Script {
  return {
    rules: [
      {
        name: 'scaffold',
        match: { callKey: /\/scaffold\// },
        delayMs: opts.delayMs,
        reply: (request) => {
          const task = taskOf(request);
          const turn = request.messages.filter((m) => m.role === 'tool').length;
          const requeried = /did not use any tool calls/.test(request.lastUser);
          if (task.id === SCAFFOLD_REQUERY_TASK && turn === 0 && !requeried)
            return { text: 'I will start by listing the sheets with view_xlsx.' };
          if (task.id === SCAFFOLD_HOSTILE_TASK) return hostileStep(turn, targets, task.output);
          return solverStep(task.id, turn, task);
        },
      },
    ],
  };
}
