export * from './schema';
export { validateManifest, type ManifestCheck } from './validate';
export { readTableShape, parseCsv } from './dataFiles';
