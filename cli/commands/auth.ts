import type { Command } from 'commander';
import { loadConfig } from '../../config/load';
import { rotateToken, serverFiles } from '../../server/auth/prepare';
import { readOrCreateSecret, AuthSetupError } from '../../server/auth/secretFile';
import { addUser, readUsersFile, removeUser } from '../../server/auth/usersFile';
import { ROLES, type Role } from '../../server/auth/user';
import { CliError, EXIT } from '../exitCodes';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** `sheetbench auth …`: the server's sign-in token and its users file (server/README.md, "Security model"). */
export function registerAuthCommands(program: Command): void {
  const auth = program.command('auth').description("the web server's sign-in: its token and its users");

  auth
    .command('token')
    .description('print the sign-in token of `sheetbench serve` (created when missing)')
    .action(() =>
      guard(async () => {
        out((await readOrCreateSecret(serverFiles(loadConfig().server).token)).value);
      }),
    );

  auth
    .command('rotate-token')
    .description('replace the token and sign every browser out (old login links and Bearer scripts stop working)')
    .action(() =>
      guard(async () => {
        const { token, file } = await rotateToken(loadConfig().server);
        out(token);
        process.stderr.write(`new token written to ${file}; a running server picks it up when restarted\n`);
      }),
    );

  auth
    .command('add-user <name>')
    .description('add a user to the users file (or give them a new token); prints their token once')
    .option('--role <role>', ROLES.join(' | '), 'user')
    .action((name: string, flags: { role: string }) =>
      guard(async () => {
        if (!ROLES.includes(flags.role as Role))
          throw new CliError(`--role must be one of ${ROLES.join(', ')}`, EXIT.usage);
        const file = serverFiles(loadConfig().server).users;
        out(await addUser(file, name, flags.role as Role));
        process.stderr.write(`${name} (${flags.role}) is in ${file}; the token above is shown only now\n`);
      }),
    );

  auth
    .command('remove-user <name>')
    .description('remove a user: their token and browser sessions stop working at once')
    .action((name: string) =>
      guard(async () => {
        const file = serverFiles(loadConfig().server).users;
        if (!(await removeUser(file, name))) throw new CliError(`no user ${name} in ${file}`, EXIT.notFound);
        out(`removed ${name}`);
      }),
    );

  auth
    .command('users')
    .description('list the users file (names and roles)')
    .action(() =>
      guard(async () => {
        for (const u of await readUsersFile(serverFiles(loadConfig().server).users)) out(`${u.name}\t${u.role}`);
      }),
    );
}

async function guard(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    throw err instanceof AuthSetupError ? new CliError(err.message, EXIT.config) : err;
  }
}
