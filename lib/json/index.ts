export { CorruptFileError, MissingFileError, isCorruptFileError } from './fileErrors';
export { describeIssues, parseJsonText } from './parseJson';
export {
  readJsonFile,
  readJsonIfPresent,
  readRequiredJson,
  readTextIfPresent,
  type JsonFileRead,
} from './readJsonFile';
export { parseJsonLines, type JsonLines } from './jsonLines';
export { warnCorruptFile } from './corruptWarning';
