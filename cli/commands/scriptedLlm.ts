import type { Command } from 'commander';
import { CliError, EXIT } from '../exitCodes';
import { loadScriptFile, ScriptFileError, startScriptedServer } from '../../lib/scriptedLlm';

interface ScriptedLlmOptions {
  script: string;
  port: string;
  host: string;
  log?: string;
  latencyMs?: string;
}

/** `sheetbench scripted-llm --script FILE [--port N]`: serves the scripted OpenAI-compatible model until killed. */
export function registerScriptedLlmCommand(program: Command): void {
  program
    .command('scripted-llm')
    .description('Serve a scripted OpenAI-compatible model (/v1/chat/completions) for tests and reproducible runs')
    .requiredOption(
      '--script <file>',
      'JSON script: { rules: [{ match, reply | fault, times, delayMs }], fallback, latencyMs }',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '0')
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--log <file>', 'append every request received to this JSONL file')
    .option('--latency-ms <n>', 'delay added to every reply (overrides the script)')
    .action(async (opts: ScriptedLlmOptions) => {
      const script = await loadScriptOrFail(opts.script);
      if (opts.latencyMs !== undefined) script.latencyMs = nonNegativeInt(opts.latencyMs, '--latency-ms');
      const server = await startScriptedServer({
        script,
        port: nonNegativeInt(opts.port, '--port'),
        host: opts.host,
        logFile: opts.log,
      }).catch((err: unknown) => {
        throw new CliError(
          `scripted-llm: cannot listen on ${opts.host}:${opts.port}: ${(err as Error).message}`,
          EXIT.server,
        );
      });
      process.stdout.write(`${server.url}\n`);
      await untilSignalled();
      await server.close();
    });
}

async function loadScriptOrFail(file: string) {
  try {
    return await loadScriptFile(file);
  } catch (err) {
    if (err instanceof ScriptFileError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
}

function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CliError(`${flag} must be a non-negative integer, got "${value}"`, EXIT.usage);
  return n;
}

function untilSignalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
