import { z } from 'zod';
import { ToolRefusal, type AnalysisTool, type WorkspaceFile } from './types';

export const webFetchArgs = z.object({
  url: z.string().min(1).describe('An http:// or https:// URL'),
  type: z.enum(['html', 'json', 'text', 'file']).default('text').describe('html: readable text of a page; json: parsed JSON; text: raw text; file: save the body into the workspace'),
  filename: z.string().optional().describe('For type "file": workspace-relative name to save as (default: derived from the URL, under downloads/)'),
});

export interface WebFetchResult {
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  status: number;
  contentType: string;
  bytes: number;
  /** html/text: the text; json: the parsed value (both cut to the configured size). */
  content?: unknown;
  truncated?: boolean;
  /** type "file": where the body was saved. */
  file?: WorkspaceFile;
}

export const webFetchTool: AnalysisTool<z.infer<typeof webFetchArgs>, WebFetchResult> = {
  name: 'web_fetch',
  description: 'pending',
  args: webFetchArgs,
  async run() {
    throw new ToolRefusal('web_fetch is not implemented yet on this branch');
  },
};
