/**
 * A module only tsx can load (test/unit/prebuiltModule.test.ts): Node alone refuses `.ts` files, and its own type
 * stripping (newer Nodes) refuses an enum.
 */
export enum Probe {
  Loaded = 1,
}
