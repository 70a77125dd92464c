// The bench's results as data: what run.ts measures, the table prints and the JSON file holds.

import type { LoadFigures } from './load.js';
import type { ProxyOverhead } from './proxy-overhead.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerId } from './servers.js';
import type { SideBySideFigures } from './side-by-side.js';

export interface ScenarioResult extends LoadFigures {
  readonly scenario: ScenarioId;
  /**
   * Each slice's answers a second and CPU per answer, in the order taken: slice i of every server
   * belongs to the same round of turns, seconds apart (how much a scenario's figures moved within the
   * run). Absent from results written before 2026-11-28.
   */
  readonly slices?: readonly SliceFigures[];
  /**
   * On petkit's row: petkit and `--journal-limit 0` driven at the same time (bench/side-by-side.ts),
   * petkit first in each window's pair. Absent from results written before 2026-11-30.
   */
  readonly journalSideBySide?: SideBySideFigures;
  /** On petkit's row: petkit and the work-matched ceiling driven at the same time, petkit first. */
  readonly ceilingSideBySide?: SideBySideFigures;
  /** On petkit's row, with `--baseline DIR`: petkit and the baseline build driven at the same time. */
  readonly baselineSideBySide?: SideBySideFigures;
}

export interface SliceFigures {
  readonly rps: number;
  readonly cpuUsPerRequest: number | undefined;
}

export type ServerResult =
  | {
      readonly server: ServerId;
      readonly label: string;
      readonly ran: true;
      readonly pid: number;
      readonly startToFirstAnswerMs: number;
      /** VmHWM at the end of the server's run, in bytes: its peak resident memory. */
      readonly peakRss: number | undefined;
      readonly scenarios: readonly ScenarioResult[];
    }
  | { readonly server: ServerId; readonly label: string; readonly ran: false; readonly reason: string };

export type ContractResult =
  | {
      readonly ran: true;
      readonly wallMs: number;
      /** Requests the suite sent, counted by the mock; undefined when it could not be counted. */
      readonly requests: number | undefined;
      readonly rps: number | undefined;
      readonly exitCode: number;
    }
  | { readonly ran: false; readonly reason: string };

export interface RatioRow {
  readonly scenario: ScenarioId;
  /** petkit req/s over Prism's with `-v silent`. */
  readonly overPrismSilent: number | undefined;
  /** petkit req/s over the work-matched ceiling's. */
  readonly overCeiling: number | undefined;
  /** petkit req/s over the precomputed ceiling's. */
  readonly overPrecomputed?: number | undefined;
  /** The precomputed ceiling's CPU per answer over petkit's. */
  readonly cpuOverPrecomputed?: number | undefined;
  /** Prism-silent's CPU time per answer over petkit's: how many times less work petkit does per answer. */
  readonly cpuOverPrismSilent: number | undefined;
  /** The work-matched ceiling's CPU time per answer over petkit's (1: no overhead of petkit's own). */
  readonly cpuOverCeiling: number | undefined;
  /** petkit req/s over the baseline build's (`--baseline DIR`), when it ran. */
  readonly overBaseline?: number | undefined;
  /** The baseline build's CPU per answer over petkit's. */
  readonly cpuOverBaseline?: number | undefined;
  /** What the journal costs: petkit's CPU per answer over `--journal-limit 0`'s, when both ran. */
  readonly journal?: JournalCost | undefined;
  /**
   * The work-matched ceiling's CPU an answer over petkit's, read side by side: the ceiling's CPU an
   * answer alone over the same plus the windows' mean difference (petkit's extra work, with the
   * machine's moves divided out), and its 95 % interval. Absent without a side-by-side run.
   */
  readonly ceilingSideBySide?: OverPetkit | undefined;
  /** The baseline build's CPU an answer over petkit's, read side by side the same way (`--baseline DIR`). */
  readonly baselineSideBySide?: OverPetkit | undefined;
}

/** Another server's CPU an answer over petkit's, read side by side, with its 95 % interval. */
export interface OverPetkit {
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
  /** What petkit spends an answer beyond the other, in µs: the windows' mean difference. */
  readonly extraUs: number;
  readonly windows: number;
  /** How many pairs of processes the windows came from (`--ceiling-pairs`); absent from one pair's run. */
  readonly pairs?: number;
  /** With `pairs`: each pair's own reading, in the order the pairs ran (NaN for a pair that gave no window). */
  readonly pairRatios?: readonly number[];
}

/**
 * petkit's CPU per answer over `--journal-limit 0`'s: over the whole scenario, and slice by slice
 * (the two take their turns seconds apart, so a slice's ratio is a pair; their median is the figure
 * one slow slice does not move, their range how far a slice's can stray).
 */
export interface JournalCost {
  readonly ratio: number;
  /** Absent when the results hold no slices that both have CPU figures for. */
  readonly slices?: { readonly median: number; readonly min: number; readonly max: number } | undefined;
  /**
   * Where the journal's cost lies, as far as this run can tell: the 95 % interval of the slices'
   * ratios (their geometric mean, Student's t over their logarithms). A run whose interval holds
   * 1.05 cannot say on which side of 5 % the journal is. Absent with fewer than three pairs.
   */
  readonly interval?: { readonly low: number; readonly high: number } | undefined;
  /** The same cost read with both driven at once; absent without a side-by-side run. */
  readonly sideBySide?: SideBySideCost | undefined;
}

/**
 * The journal's cost from a side-by-side run: each window's CPU an answer of petkit minus that of
 * `--journal-limit 0` (the machine's moves fall on both and cancel), over `--journal-limit 0`'s CPU an
 * answer driven alone. Alone, not side by side: two servers sharing the cores both pay more an answer,
 * and that shared extra would make any difference look smaller; what the journal adds is set against
 * what an answer costs without it, as the in-turn ratio does.
 */
export interface SideBySideCost {
  /** 1 + extraUs / the no-journal server's CPU an answer alone: the figure the target reads. */
  readonly ratio: number;
  /** The 95 % interval of `ratio` (Student's t over the windows' differences). */
  readonly low: number;
  readonly high: number;
  /** The journal's CPU an answer, in µs: the mean of the windows' differences. */
  readonly extraUs: number;
  /** petkit's CPU an answer over `--journal-limit 0`'s while both ran together. */
  readonly together: number;
  /** Windows read. */
  readonly windows: number;
  /** How many pairs of processes the windows came from (`--journal-pairs`); absent from one pair's run. */
  readonly pairs?: number;
  /**
   * With `pairs`: each pair's own reading, 1 + the mean of its windows' differences over the same
   * CPU an answer alone, in the order the pairs ran (NaN for a pair that gave no window). How far
   * they stray is how much a pair's process layout moves the figure; `ratio` is the mean over all
   * the windows, so a pair weighs as many windows as it gave.
   */
  readonly pairRatios?: readonly number[];
}

export interface BenchReport {
  readonly date: string;
  readonly machine: {
    readonly cpus: string;
    readonly cores: number;
    readonly memoryGb: number;
    readonly node: string;
    readonly os: string;
  };
  readonly options: { readonly connections: number; readonly duration: number; readonly warmup: number };
  readonly servers: readonly ServerResult[];
  readonly ratios: readonly RatioRow[];
  readonly contract: ContractResult;
  /** What petkit proxy adds to a request (absent with --no-proxy). */
  readonly proxy?: ProxyOverhead;
}
