import {
  InterceptingCall,
  ListenerBuilder,
  RequesterBuilder,
  type Interceptor,
  type InterceptingListener,
  type Metadata,
  type StatusObject,
} from '@grpc/grpc-js';
import { defaultGrpcRetryOptions, type GrpcRetryOptions } from '@temporalio/client';

type CallOptions = Parameters<Interceptor>[0];
type NextCall = Parameters<Interceptor>[1];

/**
 * The Temporal client's retry of failed gRPC calls (same policy: `defaultGrpcRetryOptions`), safe against the
 * connection being closed while a retry waits. The client's own interceptor retries from a bare `setTimeout`; when
 * `connection.close()` ran in between (closing also fails the calls still waiting for a subchannel, with UNAVAILABLE,
 * a retryable status), the timer's new call throws `Channel has been shut down` inside the timer — an uncaught
 * exception that ends the process with code 1 after a run that finished. Here a retry that finds the connection
 * closed ends the call with the status it last received: its caller sees an ordinary rejected call.
 */
export function closeSafeRetryInterceptor(policy: GrpcRetryOptions = defaultGrpcRetryOptions()): Interceptor {
  return (options, nextCall) => {
    const attempts = new Attempts(policy, options, nextCall);
    const requester = new RequesterBuilder()
      .withStart((metadata, upstream, next) => next(metadata, attempts.listener(metadata, upstream)))
      .withSendMessage((message, next) => {
        attempts.request = message;
        next(message);
      })
      .build();
    return new InterceptingCall(nextCall(options), requester);
  };
}

/** The attempts of one unary call: the reply (or the final status) goes upstream once, after the last attempt. */
class Attempts {
  request: unknown;
  private attempt = 1;
  private reply: { message: unknown } | undefined;
  private metadata!: Metadata;
  private upstream!: InterceptingListener;

  constructor(
    private readonly policy: GrpcRetryOptions,
    private readonly options: CallOptions,
    private readonly nextCall: NextCall,
  ) {}

  listener(metadata: Metadata, upstream: InterceptingListener) {
    this.metadata = metadata;
    this.upstream = upstream;
    return new ListenerBuilder()
      .withOnReceiveMessage((message: unknown) => (this.reply = { message }))
      .withOnReceiveStatus((status) => this.onStatus(status))
      .build();
  }

  private onStatus(status: StatusObject): void {
    if (!this.policy.retryableDecider(this.attempt, status)) return this.end(status);
    setTimeout(() => this.retry(status), this.policy.delayFunction(this.attempt, status));
  }

  private retry(last: StatusObject): void {
    this.attempt++;
    this.reply = undefined;
    let call: ReturnType<NextCall>;
    try {
      call = this.nextCall(this.options);
    } catch {
      return this.end(last); // the connection was closed while this retry waited
    }
    call.start(this.metadata, {
      onReceiveMessage: (message: unknown) => (this.reply = { message }),
      onReceiveStatus: (status: StatusObject) => this.onStatus(status),
    });
    call.sendMessage(this.request);
    call.halfClose();
  }

  private end(status: StatusObject): void {
    if (this.reply) this.upstream.onReceiveMessage(this.reply.message);
    this.upstream.onReceiveStatus(status);
  }
}
