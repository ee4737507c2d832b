import { Hono } from 'hono';
import type { ConversationService } from '../client/conversations';
import { conversationRoutes } from './routes/conversations';
import { runsRoutes } from './routes/runs';
import { webRoutes } from './routes/web';

export interface AppDeps {
  service: ConversationService;
  temporal: { address: string; namespace: string; uiUrl?: string };
  maxUploadBytes: number;
}

/** The one HTTP app: the conversation API under /api (issue 11 adds its routes here, one line each). */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.get('/api/health', (c) => c.json({ ok: true, temporal: deps.temporal.address, namespace: deps.temporal.namespace, temporalUiUrl: deps.temporal.uiUrl }));
  app.route('/api', conversationRoutes({ service: deps.service, maxUploadBytes: deps.maxUploadBytes }));
  app.route('/', runsRoutes({ temporal: deps.temporal }));
  app.route('/', webRoutes());
  return app;
}
