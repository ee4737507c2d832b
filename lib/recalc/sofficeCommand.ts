import { pathToFileURL } from 'node:url';

/**
 * The command line of a headless soffice that listens for UNO on its own pipe, with its own profile: the one way this
 * folder starts LibreOffice (the recalculation instances and the chart export).
 */
export function sofficeArgs(profileDir: string, pipeName: string): string[] {
  return [
    `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
    `--accept=pipe,name=${pipeName};urp;`,
    '--norestore',
    '--nologo',
    '--nodefault',
    '--headless',
    '--nolockcheck',
  ];
}
