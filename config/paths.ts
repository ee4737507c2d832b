import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder, found from this file (never from the working directory): `.tools/`, `.state/`, package.json. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
