/**
 * Links into the Temporal Web UI. `uiWorkflowsUrl` is the UI's workflow list of the namespace,
 * `http://host:port/namespaces/<ns>/workflows` (what the dev server reports); a workflow's page is that list plus its
 * id as one path segment (ids with `/`, as task workflows have, are encoded), which the UI redirects to the latest run.
 */
export function workflowUiUrl(uiWorkflowsUrl: string, workflowId: string): string {
  return `${uiWorkflowsUrl.replace(/\/+$/, '')}/${encodeURIComponent(workflowId)}`;
}
