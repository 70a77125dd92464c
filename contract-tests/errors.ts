import type { Exchange, RequestRecord } from './exchange.js';

// The few errors the suite throws. Each has a stable code; the CLI maps them to exit status 2.

export type AbortCode =
  | 'invalid_options'
  | 'unreachable'
  | 'key_rejected'
  | 'rate_limit_exhausted'
  | 'ban_risk'
  | 'read_only_violation'
  | 'interrupted'
  | 'nothing_judged';

/** The run cannot go on (or cannot start): the verdict would not mean anything. */
export class ContractAbort extends Error {
  override readonly name = 'ContractAbort';
  readonly code: AbortCode;
  /** The request that made the run stop, when one did. */
  readonly request: RequestRecord | undefined;
  /** Its answer came in a content coding (or named one it was not in): its curl line asks for the same. */
  readonly encoded: boolean;
  constructor(
    code: AbortCode,
    message: string,
    options?: { cause?: unknown; request?: RequestRecord; encoded?: boolean },
  ) {
    super(message, options);
    this.code = code;
    this.request = options?.request;
    this.encoded = options?.encoded ?? false;
  }
}

/**
 * The run was told to stop (`petkit contract` on SIGINT or SIGTERM: the signal's name is the reason):
 * what was judged before is reported, the rest skipped.
 */
export function interrupted(signal: AbortSignal): ContractAbort {
  const by = typeof signal.reason === 'string' ? signal.reason : 'its caller';
  return new ContractAbort(
    'interrupted',
    `Interrupted by ${by}: the checks judged before it are reported, the rest are skipped.`,
  );
}

/** Whether the run was told to stop (a call: read afresh after every wait, never narrowed by an earlier look). */
export function stopped(signal: AbortSignal): boolean {
  return signal.aborted;
}

/**
 * The target stopped answering: requests in a row got no answer within the timeout (client.ts,
 * SILENT_AFTER). Not a ContractAbort: a target that hangs departs from the contract, so the run ends
 * with this as a finding (exit 1) and judges nothing more.
 */
export class TargetSilent extends Error {
  override readonly name = 'TargetSilent';
  /** The request that started the silence. */
  readonly exchange: Exchange;
  /** Requests answered before it. */
  readonly answered: number;
  constructor(message: string, exchange: Exchange, answered: number) {
    super(message);
    this.exchange = exchange;
    this.answered = answered;
  }
}
