// Whether the mock's shared state is lost: from the first StateUnavailableError to the next call
// answered, it answers 503, and the log says so once when it is lost and once when it is back.
import type { Logger } from './options.js';
import type { StateUnavailableError } from './state.js';

export interface LossTracker {
  /** A call met the state unavailable. */
  failed(error: StateUnavailableError): void;
  /** A call was answered with the state reachable. */
  answered(): void;
  readonly lost: boolean;
}

export function createLossTracker(logger: Logger): LossTracker {
  let lost = false;
  return {
    failed(error) {
      if (!lost)
        logger.error(`petkit mock: ${error.message.replace(/\.$/, '')}; answering 503 until it is back`);
      lost = true;
    },
    answered() {
      if (!lost) return;
      lost = false;
      logger.error('petkit mock: the shared state is back; answering again');
    },
    get lost() {
      return lost;
    },
  };
}
