/**
 * Builds a Windows command line the way CommandLineToArgvW / the MSVC runtime parse it back (PowerShell's -File
 * arguments included): an argument with spaces, tabs or quotes is wrapped in quotes, each `"` becomes `\"`, and
 * backslashes are doubled only where they precede a quote (inside or the closing one).
 */
export function quoteWindowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    if (ch === '"') {
      out += '\\'.repeat(backslashes * 2 + 1) + '"';
    } else {
      out += '\\'.repeat(backslashes) + ch;
    }
    backslashes = 0;
  }
  return out + '\\'.repeat(backslashes * 2) + '"';
}

export function windowsCommandLine(args: readonly string[]): string {
  return args.map(quoteWindowsArg).join(' ');
}
