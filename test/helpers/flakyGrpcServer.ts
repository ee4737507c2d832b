import { Server, ServerCredentials, status, type StatusObject } from '@grpc/grpc-js';

export interface FlakyGrpcServer {
  address: string;
  /** Calls answered so far. */
  calls(): number;
  stop(): void;
}

/**
 * A gRPC server with Temporal's DescribeNamespace only: the first `failures` calls are answered UNAVAILABLE (as a
 * restarting server answers), later ones with an empty (valid) reply.
 */
export async function flakyGrpcServer(failures: number): Promise<FlakyGrpcServer> {
  const grpc = new Server();
  const raw = (b: Buffer) => b;
  let calls = 0;
  grpc.addService(
    {
      DescribeNamespace: {
        path: '/temporal.api.workflowservice.v1.WorkflowService/DescribeNamespace',
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    },
    {
      DescribeNamespace: (_call: unknown, reply: (err: Partial<StatusObject> | null, value?: Buffer) => void) =>
        ++calls <= failures
          ? reply({ code: status.UNAVAILABLE, details: 'server restarting' })
          : reply(null, Buffer.alloc(0)),
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, calls: () => calls, stop: () => grpc.forceShutdown() };
}
