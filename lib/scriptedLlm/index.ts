export { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from './server';
export { replyOf } from './script';
export type {
  Script,
  ScriptRule,
  RuleMatch,
  Fault,
  ScriptedRequest,
  ScriptedReply,
  ScriptedToolCall,
  ReplyFn,
} from './script';
export {
  duplicatesAnswered,
  duplicatesAnsweredApartFromKills,
  readRequestLog,
  requestLogEntrySchema,
  type RequestLogEntry,
} from './requestLog';
export {
  loadScriptFile,
  scriptFromJson,
  scriptFileSchema,
  faultSchema,
  ScriptFileError,
  type ScriptFile,
} from './fixtureFile';
