// Child process of closeDuringRetry.test.ts: one gRPC call that fails with a retryable status, the connection
// closed while its retry waits. Prints how the call ended; a crash shows as a non-zero exit code.
import { status, type StatusObject } from '@grpc/grpc-js';
import { Connection, makeGrpcRetryInterceptor, type GrpcRetryOptions } from '@temporalio/client';
import { closeSafeRetryInterceptor } from '../../lib/temporal/closeSafeRetry';
import { flakyGrpcServer } from '../helpers/flakyGrpcServer';

const which = process.argv[2] as 'stock' | 'closeSafe';
const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));

const server = await flakyGrpcServer(Infinity);
let closing: Promise<void> | undefined;
const policy: GrpcRetryOptions = {
  retryableDecider: (attempt: number, s: StatusObject) => {
    // Called just before the retry's timer is set: the connection is closed before that timer fires.
    if (attempt === 1) closing = new Promise((r) => setImmediate(r)).then(() => connection.close());
    return attempt < 3 && s.code === status.UNAVAILABLE;
  },
  delayFunction: () => 300,
};
const interceptor = which === 'stock' ? makeGrpcRetryInterceptor(policy) : closeSafeRetryInterceptor(policy);
const connection = Connection.lazy({ address: server.address, interceptors: [interceptor] });
const ended = await connection.workflowService.describeNamespace({ namespace: 'x' }).then(
  () => 'resolved',
  (err: { code?: number }) => `rejected with code ${err.code}`,
);
await closing;
server.stop();
await new Promise((r) => setTimeout(r, 400)); // a timer left behind fires before the verdict
process.stdout.write(`${JSON.stringify({ ended, unhandled, calls: server.calls() })}\n`);
