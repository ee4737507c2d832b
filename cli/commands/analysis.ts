import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load';
import type { Config } from '../../config/schema';
import { ConversationError } from '../../analysis/conversation/errors';
import type { ConversationEvent } from '../../analysis/conversation/events';
import type { Grounding } from '../../analysis/grounding/types';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import { ConversationService } from '../../client/conversations';
import { PATTERNS, type Pattern } from '../../contracts/conversation';
import { connectClient } from '../../lib/temporal/connection';
import type { WorkerSet } from '../../workers/createWorkers';
import { startServer } from '../../server/start';
import { prepareSignIn } from '../../server/auth/prepare';
import { AuthSetupError } from '../../server/auth/secretFile';
import { CliError, EXIT } from '../exitCodes';
import { resolveTemporal, type TemporalSession } from '../temporalSession';
import { assertReadyToStart } from '../doctor/startup';
import { assertConversationPriced } from '../../analysis/conversation/budgetPricing';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface ServeFlags {
  port: string;
  host: string;
  worker: boolean;
  auth: boolean;
  token?: string;
  publicName: string[];
}

interface AskFlags {
  file: string[];
  pattern?: string;
  out?: string;
  export?: string;
  model?: string;
  baseUrl?: string;
}

export function registerAnalysisCommands(program: Command): void {
  program
    .command('serve')
    .description('HTTP API for analysis conversations (workers in-process unless --no-worker)')
    .option('--port <n>', 'port', '8787')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--no-worker', 'do not start in-process workers (workers run elsewhere)')
    .option(
      '--token <token>',
      'the sign-in token (default: SHEETBENCH_TOKEN, else the token file in server.stateDir, created once)',
    )
    .option('--no-auth', "no sign-in (only on a loopback --host; other sites' pages are still refused)")
    .option(
      '--public-name <name>',
      'a host name this server answers to besides localhost/127.0.0.1 (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .action(async (flags: ServeFlags) => {
      const loaded = loadConfig();
      const config = {
        ...loaded,
        server: { ...loaded.server, publicNames: [...loaded.server.publicNames, ...flags.publicName] },
      };
      // A conversation dollar budget on a model without a price could never stop: refused before anything starts.
      assertConversationPriced(config);
      // Sign-in is checked first: a server that would be open stops here, before Temporal or a worker starts.
      const signIn = await prepareSignIn({
        server: config.server,
        host: flags.host,
        token: flags.token ?? (process.env.SHEETBENCH_TOKEN || undefined),
        noAuth: !flags.auth,
      }).catch((err: unknown) => {
        throw err instanceof AuthSetupError
          ? new CliError(`cannot start the server: ${err.message}`, EXIT.config)
          : err;
      });
      if (flags.worker) await assertReadyToStart(config, { recalc: false });
      const session = await resolveTemporal(config, log);
      const client = await connectClient(session);
      const workers = flags.worker ? await analysisWorkers(session, config) : undefined;
      const port = Number.parseInt(flags.port, 10);
      if (!Number.isInteger(port) || port < 0)
        throw new CliError(`--port must be a port number, got "${flags.port}"`, EXIT.usage);
      const server = await startServer({
        config,
        client,
        temporal: { address: session.address, namespace: session.namespace, uiUrl: session.uiUrl },
        port,
        host: flags.host,
        workers,
        signIn,
      });
      for (const note of server.notes) log(note);
      log(
        `sheetbench web app on ${server.url}/ and its API on ${server.url}/api (conversations in ${path.resolve(config.conversation.dir)})`,
      );
      // As Jupyter does: the URL that signs a browser in (the page swaps the token for a cookie and drops it from the address bar).
      if (server.token) log(`sign in by opening: ${server.loginUrl}`);
      await new Promise<void>((resolve) => {
        for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
      });
      await server.close();
      await client.connection.close();
    });

  program
    .command('ask <question>')
    .description('one analysis conversation, headless: prints the answer and where its files are')
    .option(
      '--file <path>',
      'a file for the workspace (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--pattern <name>', `${PATTERNS.join(' | ')}`, 'auto')
    .option('--out <dir>', 'folder for the conversation (default: conversation.dir of the config)')
    .option(
      '--export <format>',
      'also write the conversation as a notebook (ipynb) or a script (py), with the zip of its inputs, into <conversation>/export/',
    )
    .option('--model <name>', 'model name')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (key from OPENAI_API_KEY)')
    .action(async (question: string, flags: AskFlags) => {
      if (!PATTERNS.includes(flags.pattern as Pattern))
        throw new CliError(`--pattern must be one of ${PATTERNS.join(', ')}`, EXIT.usage);
      if (flags.export !== undefined && flags.export !== 'ipynb' && flags.export !== 'py')
        throw new CliError(`--export must be ipynb or py, not "${flags.export}"`, EXIT.usage);
      const config = loadConfig({
        llm: { model: flags.model, baseUrl: flags.baseUrl },
        conversation: flags.out ? { dir: flags.out } : {},
      });
      assertConversationPriced(config);
      await assertReadyToStart(config, { recalc: false });
      const session = await resolveTemporal(config, log);
      const client = await connectClient(session);
      const workers = await analysisWorkers(session, config);
      const running = workers.run();
      try {
        const service = new ConversationService({ client, config });
        const { status, id } = await ask(service, question, flags.file, flags.pattern as Pattern);
        if (status !== 'completed') process.exitCode = EXIT.failure;
        if (flags.export && !(await exportAsked(service, id, flags.export))) process.exitCode = EXIT.failure;
        await service.close(id);
      } finally {
        await workers.shutdown();
        await running;
        await client.connection.close();
      }
    });
}

/** Loaded only when workers are started (not for `serve --no-worker` or a refusal): they are most of its start-up CPU. */
async function analysisWorkers(session: TemporalSession, config: Config): Promise<WorkerSet> {
  const [{ connectWorkerConnection }, { createWorkers }] = await Promise.all([
    import('../../workers/connection'),
    import('../../workers/createWorkers'),
  ]);
  const connection = await connectWorkerConnection(session);
  return createWorkers(
    connection,
    { ...config, temporal: { ...config.temporal, namespace: session.namespace } },
    { recalc: false },
  );
}

/** Writes the export and the inputs zip into `<conversation>/export/`; false (the reason printed) when there is nothing to export. */
async function exportAsked(service: ConversationService, id: string, format: 'ipynb' | 'py'): Promise<boolean> {
  const dir = path.join(conversationLayout(conversationDir(service.root, id)).dir, 'export');
  await mkdir(dir, { recursive: true });
  for (const f of [format, 'inputs'] as const) {
    try {
      const file = await service.export(id, { format: f });
      await writeFile(path.join(dir, file.filename), file.body);
      log(`export: ${path.join(dir, file.filename)}`);
    } catch (err) {
      if (!(err instanceof ConversationError)) throw err;
      log(`export (${f}): ${err.message}`);
      if (f === format) return false;
    }
  }
  return true;
}

/** Runs one turn, printing its progress to stderr and the answer to stdout; returns how the turn ended. */
async function ask(
  service: ConversationService,
  question: string,
  files: string[],
  pattern: Pattern,
): Promise<{ status: string; id: string }> {
  const conv = await service.create({ title: question.slice(0, 80), pattern });
  const uploads = await Promise.all(
    files.map(async (f) => ({ name: path.basename(f), data: await readFile(f) })),
  ).catch((err: Error) => {
    throw new CliError(`cannot read --file: ${err.message}`, EXIT.usage);
  });
  if (uploads.length) {
    const stored = await service.upload(conv.id, uploads).catch((err: unknown) => {
      throw err instanceof ConversationError ? new CliError(err.message, EXIT.usage) : err;
    });
    for (const f of stored) log(`file ${f.path} (${f.size} bytes${f.note ? `, ${f.note}` : ''})`);
  }
  const { turnId } = await service.send(conv.id, { text: question, pattern, files: uploads.map((u) => u.name) });
  let seq = 0;
  for (;;) {
    const events = await service.events(conv.id, seq);
    for (const e of events) {
      seq = e.seq;
      printEvent(e);
      if (e.type === 'turn_ended' && e.turnId === turnId) {
        const layout = conversationLayout(conversationDir(service.root, conv.id));
        log(
          `conversation ${conv.id}: files in ${layout.workspace}; events, transcripts and debug records in ${layout.dir}`,
        );
        return { status: String(e.data.status), id: conv.id };
      }
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** "[grounding] 3 of 4 numbers found in the turn's tool outputs; not found: 12%". */
function groundingLine(g: Grounding): string {
  if (!g.total) return `[grounding] ${g.note ?? 'no numbers to check'}`;
  const missing = g.numbers.filter((n) => !n.grounded).map((n) => n.text);
  return `[grounding] ${g.grounded} of ${g.total} numbers found in the turn's tool outputs${missing.length ? `; not found: ${missing.join(', ')}` : ''}${g.note ? ` (${g.note})` : ''}`;
}

/** The first `maxLines` lines of text, indented, with a note of how many more there were. */
function indent(text: string, maxLines: number): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, maxLines).map((l) => `    ${l.slice(0, 200)}`);
  return [...shown, ...(lines.length > maxLines ? [`    … ${lines.length - maxLines} more lines`] : [])].join('\n');
}

function printEvent(e: ConversationEvent): void {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'step':
      return log(`[${d.kind}] ${String(d.text).slice(0, 300)}`);
    case 'tool_call':
      return log(`[tool] ${d.tool} ${JSON.stringify(d.args).slice(0, 200)}`);
    case 'tool_result':
      // What the code printed is shown too: the numbers the answer should be made of, whatever the model makes of them.
      return log(
        `[tool] ${d.tool} ${d.ok ? 'ok' : `failed: ${String(d.error ?? d.stderr ?? '').slice(0, 300)}`}${d.ok && d.stdout ? `\n${indent(String(d.stdout), 20)}` : ''}`,
      );
    case 'error':
      return log(`[error] ${d.message}`);
    case 'answer':
      return void process.stdout.write(`${d.text}\n`);
    case 'grounding':
      return log(groundingLine(d as unknown as Grounding));
    case 'turn_ended':
      return log(`turn ${e.turnId} ${d.status}`);
    default:
      return undefined;
  }
}
