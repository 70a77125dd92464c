// The steps of one sequence as they are sent (fast-check's "real" system): each request goes through
// the phase's Spender, and is kept with what it was to answer and why, for the sh script.
import type { Outgoing } from '../client.js';
import type { Exchange } from '../exchange.js';
import type { ScriptStep } from '../replay/sh-script.js';
import { describeExpectation, type Expectation } from './model.js';

export interface StepNote {
  /** The request in words: `getPet of the pet created at step 2`. */
  readonly what: string;
  readonly expectation: Expectation;
  /** Keep the id of the pet a 201 holds, in a script variable. */
  readonly capture?: boolean;
  /** The path as the script writes it, with a captured id. */
  readonly shellPath?: string;
}

export interface SentStep extends ScriptStep {
  /** 1-based, in the order sent. */
  readonly number: number;
  readonly variable?: string;
}

/** Sends for the phase: counts what it spends, and stops a sequence past its caps (by throwing). */
export interface Spender {
  send(outgoing: Outgoing): Promise<Exchange>;
}

export class Steps {
  readonly sent: SentStep[] = [];
  constructor(readonly spender: Spender) {}

  async send(outgoing: Outgoing, note: StepNote): Promise<SentStep> {
    const [step] = await this.sendAtOnce([{ outgoing, note }]);
    if (step === undefined) throw new Error('no step sent');
    return step;
  }

  /** Requests sent together (concurrent creates); the script replays them one after the other. */
  async sendAtOnce(requests: readonly { outgoing: Outgoing; note: StepNote }[]): Promise<SentStep[]> {
    const first = this.sent.length + 1;
    const exchanges = await Promise.all(requests.map(({ outgoing }) => this.spender.send(outgoing)));
    const steps = exchanges.map((exchange, i): SentStep => {
      const { note } = requests[i] ?? { note: undefined };
      const number = first + i;
      return {
        number,
        exchange,
        note: `${note?.what ?? ''}: ${note === undefined ? '' : describeExpectation(note.expectation)}`,
        expected: note?.expectation.statuses.join(' or ') ?? '',
        ...(note?.capture === true ? { captureId: `id${number}`, variable: `id${number}` } : {}),
        ...(note?.shellPath === undefined ? {} : { shellPath: note.shellPath }),
      };
    });
    this.sent.push(...steps);
    return steps;
  }
}
