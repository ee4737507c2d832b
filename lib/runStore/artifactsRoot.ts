import path from 'node:path';

/**
 * Run folders travel in payloads relative to an artifacts root, so workers that mount the store at different places
 * (`/mnt/runs` on one Linux host, `R:\runs` or `\\host\share\runs` on a Windows recalc host) serve one run. Payload
 * paths use `/` separators; each worker joins them onto its own root with its own platform's separators. Absolute
 * payload paths (runs outside the root, histories from before roots existed) are used as they are.
 */
export class ArtifactsRootError extends Error {
  override name = 'ArtifactsRootError';
}

/** `R:\runs`, `R:/runs` and `\\host\share\runs` are Windows roots wherever the code runs (tests, docs). */
export function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p) || /^\\\\[^\\]/.test(p);
}

/** The path functions for a root: Windows ones for a Windows root, else this platform's. */
export function pathLib(root: string | undefined): path.PlatformPath {
  if (!root) return path;
  return isWindowsPath(root) ? path.win32 : path;
}

function isAbsoluteAnywhere(p: string): boolean {
  return path.posix.isAbsolute(p) || isWindowsPath(p);
}

/** A local path as a payload carries it: relative to the root (with `/`) when inside it, else unchanged. */
export function toPayloadPath(localPath: string, root: string | undefined): string {
  if (!root) return localPath;
  const lib = pathLib(root);
  const rel = lib.relative(lib.resolve(root), lib.resolve(localPath));
  if (!rel || rel === '..' || rel.startsWith(`..${lib.sep}`) || lib.isAbsolute(rel)) return localPath;
  return rel.split(lib.sep).join('/');
}

/** Where a payload path is on this worker: absolute paths as they are, relative ones joined onto this worker's root. */
export function fromPayloadPath(payloadPath: string, root: string | undefined): string {
  if (isAbsoluteAnywhere(payloadPath)) return payloadPath;
  const segments = payloadPath.split('/').filter((s) => s && s !== '.');
  if (segments.includes('..')) throw new ArtifactsRootError(`payload path ${payloadPath} leaves the artifacts root`);
  if (!root) {
    throw new ArtifactsRootError(
      `the run passes its folder as ${payloadPath}, relative to an artifacts root, and this worker has none: set artifacts.root or SHEETBENCH_ARTIFACTS_ROOT`,
    );
  }
  const lib = pathLib(root);
  return lib.join(lib.resolve(root), ...segments);
}
