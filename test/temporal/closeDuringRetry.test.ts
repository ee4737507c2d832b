import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Connection, defaultGrpcRetryOptions } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { closeSafeRetryInterceptor } from '../../lib/temporal/closeSafeRetry';
import { flakyGrpcServer } from '../helpers/flakyGrpcServer';

function runChild(which: 'stock' | 'closeSafe') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'closeDuringRetry.ts'), which], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Issue 33: after every task was scored, the CLI died of `Error: Channel has been shut down` and exited 1. */
describe('closing a Temporal connection while a call waits to be retried', () => {
  it("crashes the process with the Temporal client's own retry interceptor (the cause)", () => {
    const r = runChild('stock');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Channel has been shut down');
  });

  it('ends the call with its last status, no crash and no unhandled rejection, with ours', () => {
    const r = runChild('closeSafe');
    expect(r.stderr).not.toContain('Channel has been shut down');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ended: 'rejected with code 14', unhandled: [], calls: 1 });
  });

  it('still retries as before while the connection is open: a call that fails twice then succeeds resolves', async () => {
    const server = await flakyGrpcServer(2);
    const fast = { ...defaultGrpcRetryOptions(), delayFunction: () => 20 };
    const connection = Connection.lazy({ address: server.address, interceptors: [closeSafeRetryInterceptor(fast)] });
    try {
      await expect(connection.workflowService.describeNamespace({ namespace: 'x' })).resolves.toBeDefined();
      expect(server.calls()).toBe(3);
    } finally {
      await connection.close();
      server.stop();
    }
  });

  it('gives up after the policy says so, with the last status', async () => {
    const server = await flakyGrpcServer(Infinity);
    const policy = { retryableDecider: (attempt: number) => attempt < 3, delayFunction: () => 20 };
    const connection = Connection.lazy({ address: server.address, interceptors: [closeSafeRetryInterceptor(policy)] });
    try {
      await expect(connection.workflowService.describeNamespace({ namespace: 'x' })).rejects.toMatchObject({
        code: 14,
      });
      expect(server.calls()).toBe(3);
    } finally {
      await connection.close();
      server.stop();
    }
  });
});
