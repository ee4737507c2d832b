import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { msToTs } from '@temporalio/common/lib/time';
import { SA } from './searchAttributes';

/**
 * The namespace with retention ≥ `retentionDays` and the project's search attributes, on any server: the dev server
 * creates its namespace itself, a production server (scripts/cluster.sh) has none until it is registered here.
 */
export async function prepareNamespace(address: string, namespace: string, retentionDays: number): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  try {
    await ensureNamespace(connection, namespace, retentionDays);
    await ensureSearchAttributes(connection, namespace);
  } finally {
    await connection.close();
  }
}

async function ensureNamespace(connection: Connection, namespace: string, retentionDays: number): Promise<void> {
  const retention = msToTs(retentionDays * 86_400_000);
  for (let attempt = 0; ; attempt++) {
    try {
      const desc = await connection.workflowService.describeNamespace({ namespace });
      if (Number(desc.config?.workflowExecutionRetentionTtl?.seconds ?? 0) >= retentionDays * 86_400) return;
      await connection.workflowService.updateNamespace({
        namespace,
        config: { workflowExecutionRetentionTtl: retention },
      });
      return;
    } catch (err) {
      if (isNotFound(err)) {
        await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: retention });
        continue;
      }
      if (attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await untilNamespaceCached(() => connection.operatorService.listSearchAttributes({ namespace }));
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const { IndexedValueType } = proto.temporal.api.enums.v1;
  const missing = Object.values(SA).filter((k) => !known.has(k.name));
  if (!missing.length) return;
  const searchAttributes = Object.fromEntries(
    missing.map((k) => [
      k.name,
      k.type === 'DOUBLE' ? IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE : IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
    ]),
  );
  await untilNamespaceCached(() => connection.operatorService.addSearchAttributes({ namespace, searchAttributes }));
}

/** Services that expose DescribeNamespace: a client Connection's and a worker NativeConnection's. */
interface NamespaceLookup {
  describeNamespace(request: { namespace: string }): Promise<unknown>;
}

/** A clear error instead of the SDK's first failing poll when the server has no such namespace (a production server creates none). */
export async function assertNamespaceExists(
  service: NamespaceLookup,
  namespace: string,
  address: string,
): Promise<void> {
  try {
    await service.describeNamespace({ namespace });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new Error(
      `Temporal namespace "${namespace}" does not exist on the server at ${address}: register it ` +
        `(scripts/cluster.sh up registers "sheetbench"; or \`temporal operator namespace create --namespace ${namespace}\`), ` +
        `or set TEMPORAL_NAMESPACE to an existing one`,
      { cause: err },
    );
  }
}

/** A just-registered namespace reaches the services' namespace cache some seconds later; until then calls say NOT_FOUND. */
async function untilNamespaceCached<T>(call: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!isNotFound(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

const GRPC_NOT_FOUND = 5;
function isNotFound(err: unknown): boolean {
  return (err as { code?: number })?.code === GRPC_NOT_FOUND;
}
