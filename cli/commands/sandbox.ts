import type { Command } from 'commander';
import { cp, mkdtemp, readFile, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { sandboxConfigSchema } from '../../config/schema';
import { createSandboxFactory } from '../../lib/sandbox/index';
import { CliError, EXIT } from '../exitCodes';

const execOptionsSchema = z.object({
  backend: z.enum(['auto', 'bwrap', 'docker', 'unsafe']).default('auto'),
  timeout: z.coerce.number().positive('--timeout must be a positive number of seconds').default(60),
  workdir: z.string().optional(),
});

/** `sheetbench sandbox exec FILE.py`: run a file in a fresh sandbox over a copy of DIR, print one JSON result. */
export function registerSandboxCommand(program: Command): void {
  const sandbox = program.command('sandbox').description('Run code in the isolated execution sandbox');
  sandbox
    .command('exec')
    .description(
      'Run FILE (Python, or Node for .js/.mjs) in a fresh sandbox over a copy of --workdir; prints one JSON object',
    )
    .argument('<file>', 'code to run')
    .option('--backend <name>', 'auto | bwrap | docker | unsafe', 'auto')
    .option('--timeout <seconds>', 'execution timeout in seconds', '60')
    .option('--workdir <dir>', 'folder copied into the sandbox work dir (the original is never touched)')
    .action(async (file: string, raw: unknown) => {
      const parsed = execOptionsSchema.safeParse(raw);
      if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => i.message).join('; '), EXIT.usage);
      process.stdout.write(JSON.stringify(await execFile(file, parsed.data)) + '\n');
    });
}

async function execFile(file: string, opts: z.infer<typeof execOptionsSchema>) {
  const code = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${err.code ?? err.message}`, EXIT.notFound);
  });
  const scratch = await mkdtemp(join(tmpdir(), 'sheetbench-exec-'));
  await chmod(scratch, 0o755); // the sandbox uid must be able to reach work/
  const workDir = join(scratch, 'work');
  try {
    if (opts.workdir) {
      await cp(resolve(opts.workdir), workDir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
        throw new CliError(`cannot copy --workdir ${opts.workdir}: ${err.code ?? err.message}`, EXIT.notFound);
      });
    }
    const config = sandboxConfigSchema.parse({
      backend: opts.backend,
      executionTimeoutMs: Math.round(opts.timeout * 1000),
    });
    const factory = await createSandboxFactory(config, { warmModules: [] }).catch((err: Error) => {
      throw new CliError(err.message, EXIT.config);
    });
    const sandbox = await factory.create({ workDir, language: /\.m?js$/.test(file) ? 'node' : 'python' });
    try {
      const result = await sandbox.execute(code);
      const { stdout, stderr, error, timedOut, exitCode, files, truncated, durationMs } = result;
      return {
        stdout,
        stderr,
        error,
        timedOut,
        exitCode: error && exitCode === 0 ? 1 : exitCode,
        files,
        backend: factory.backend,
        truncated,
        durationMs: Math.round(durationMs),
      };
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
