export * from './schema';
export { validateManifest, type ManifestCheck } from './validate';
export { tableShape, parseCsv } from './dataFiles';
