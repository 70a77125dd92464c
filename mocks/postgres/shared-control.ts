// The control store (armed rules and the mock's clock) in PostgreSQL, shared by every replica: a rule
// armed, switched or disarmed through one replica, or a clock moved, is in force for every replica's
// next request once its answer is sent, and a rule's counts are the replicas' together (`times: 1`
// fires once in all).
//
// Freshness without a round trip per request: each replica caches the view it last read, with the
// version it was read at. Every change bumps petkit_control.version in the change's own transaction,
// before its answer. The request path reads the cached view with no promise, and hands its version to
// the rate limiter, whose statement counts nothing when the stored version differs
// (shared-rate-limiter.ts): the limiter then throws StaleControlError, and the core reads the view
// again (`view(true)`) and takes again. So a request never counts, and never answers, by a view older
// than the last change answered before it started. A rule's counts are no part of the view (the
// request path reads rules, not counts), so a rule firing bumps nothing.
//
// Lock order, as every writer of these tables takes them: petkit_control's row, then petkit_rules'
// rows (a reset takes the pets and the buckets before both). fire() locks one rule's row and nothing
// else, so no two transactions here can wait on each other in a circle.
import { decideFire, MAX_RULES, type StoredRule } from '../rules.js';
import type { ActiveRule, ArmedRule, ClockState, ControlStore, ControlView } from '../state.js';
import type { Database, TransactionClient } from './database.js';

/** The shared control store as a replica's MockState holds it: every change answers a promise. */
export interface SharedControl extends ControlStore {
  view(fresh?: boolean): ControlView | Promise<ControlView>;
  arm(rule: StoredRule): Promise<ArmedRule | undefined>;
  list(): Promise<readonly ArmedRule[]>;
  enable(id: string, enabled: boolean): Promise<ArmedRule | undefined>;
  disarm(id?: string): Promise<number>;
  fire(id: string): Promise<boolean>;
  setClock(clock: ClockState, version: number): Promise<boolean>;
}

/** A replica's cached view, and what connect.ts tells it (internal: no part of SharedState). */
export interface ControlCache {
  readonly control: SharedControl;
  /**
   * Another replica may have changed the view (a reset heard, the reset channel back after a loss):
   * the next view() reads it again.
   */
  invalidate(): void;
  /** Takes a view read by a transaction of the caller's (a reset, a seed), once it has committed. */
  adopt(row: ViewRow): void;
}

/** The columns VIEW_COLUMNS reads (bigint arrives as a string). */
export interface ViewRow {
  readonly version: string;
  readonly offset_ms: number;
  readonly frozen_at: number | null;
  readonly rules: readonly { readonly seq: number; readonly rule: StoredRule }[];
}

interface RuleRow {
  readonly seq: number;
  readonly rule: StoredRule;
  readonly enabled: boolean;
  readonly matched: string;
  readonly fired: string;
}

/**
 * The view, read in one statement (one snapshot): the clock, the version, and the enabled rules
 * newest first. `rule` is a json column, kept as written, so a rule's properties come back in the
 * order they were armed in (answers are byte for byte the in-memory mock's).
 */
const VIEW_COLUMNS = `version, offset_ms, frozen_at,
  COALESCE((SELECT json_agg(json_build_object('seq', r.seq, 'rule', r.rule) ORDER BY r.seq DESC)
            FROM petkit_rules r WHERE r.enabled), '[]'::json) AS rules`;
const READ_VIEW = `SELECT ${VIEW_COLUMNS} FROM petkit_control`;
/** Bumps the version (with `set`, more of the row) and answers the view as this transaction sees it. */
export const bumpSql = (set = ''): string =>
  `UPDATE petkit_control SET version = version + 1${set} RETURNING ${VIEW_COLUMNS}`;
const LOCK_CONTROL = 'SELECT version FROM petkit_control FOR UPDATE';
const RULE_COLUMNS = 'seq, rule, enabled, matched, fired';

/** The rule's number in petkit_rules, or undefined for an id no rule can have. */
function seqOf(id: string): number | undefined {
  const match = /^r([1-9][0-9]{0,8})$/.exec(id);
  return match === null ? undefined : Number(match[1]);
}

const armedRule = (row: RuleRow): ArmedRule => ({
  ...row.rule,
  id: `r${row.seq}`,
  enabled: row.enabled,
  matched: Number(row.matched),
  fired: Number(row.fired),
});

function viewOf(row: ViewRow): ControlView {
  return {
    version: Number(row.version),
    clock: { offsetMs: row.offset_ms, frozenAt: row.frozen_at },
    rules: row.rules.map((one): ActiveRule => ({ ...one.rule, id: `r${one.seq}` })),
  };
}

/** Inserts `rules` as r1, r2… (a seed: the table is empty) and bumps the version. */
export async function armSeededRules(
  client: TransactionClient,
  rules: readonly StoredRule[],
): Promise<ViewRow> {
  await client.query({ text: LOCK_CONTROL });
  const kept = rules.slice(0, MAX_RULES);
  if (kept.length > 0) {
    await client.query({
      text: `INSERT INTO petkit_rules (seq, rule)
             SELECT ordinality, rule FROM unnest($1::json[]) WITH ORDINALITY AS armed(rule, ordinality)`,
      values: [kept.map((rule) => JSON.stringify(rule))],
    });
  }
  const { rows } = await client.query<ViewRow>({
    text: bumpSql(', next_rule = $1'),
    values: [kept.length + 1],
  });
  return rows[0] as ViewRow;
}

/** A reset's part: no rule, real time, ids from r1 again; answers the view it leaves. */
export async function clearControl(client: TransactionClient): Promise<ViewRow> {
  await client.query({ text: LOCK_CONTROL });
  await client.query({ text: 'DELETE FROM petkit_rules' });
  const { rows } = await client.query<ViewRow>({
    text: bumpSql(', offset_ms = 0, frozen_at = NULL, next_rule = 1'),
  });
  return rows[0] as ViewRow;
}

/** The shared control store of one replica, its view read once now. */
export async function openSharedControl(database: Database): Promise<ControlCache> {
  const first = await database.query<ViewRow>({ text: READ_VIEW });
  let cached = viewOf(first.rows[0] as ViewRow);
  /** Rises on invalidate(): a read that started before the last one is not fresh enough. */
  let invalidated = 0;
  let readAt = 0;

  /**
   * Takes a view read from the database as the cached one (the same object while the version is the
   * same). Only ever a committed one: a view read inside a transaction is adopted after its commit.
   * An older version may come back when reads on two connections cross; the limiter's check then
   * sends the next request to read again, so a wrong cache lasts one retry at most.
   */
  const adopt = (row: ViewRow): ControlView => {
    if (Number(row.version) !== cached.version) cached = viewOf(row);
    return cached;
  };

  const refresh = async (): Promise<ControlView> => {
    const started = invalidated;
    const { rows } = await database.query<ViewRow>({ name: 'petkit_control_view', text: READ_VIEW });
    readAt = Math.max(readAt, started);
    return adopt(rows[0] as ViewRow);
  };

  /** A change: `work` runs after the control row is locked; when it changed something, the version rises. */
  const change = async <T>(
    work: (client: TransactionClient) => Promise<{ result: T; changed: boolean }>,
  ): Promise<T> => {
    const { result, row } = await database.transaction(async (client) => {
      await client.query({ text: LOCK_CONTROL });
      const done = await work(client);
      if (!done.changed) return { result: done.result, row: undefined };
      const { rows } = await client.query<ViewRow>({ text: bumpSql() });
      return { result: done.result, row: rows[0] };
    });
    if (row !== undefined) adopt(row);
    return result;
  };

  const control: SharedControl = {
    view(fresh = false) {
      return fresh || readAt < invalidated ? refresh() : cached;
    },
    get last() {
      return cached;
    },
    arm: (rule) =>
      change(async (client) => {
        // After the lock: a count taken before it could miss an arm committed meanwhile.
        const { rows } = await client.query<RuleRow>({
          text: `INSERT INTO petkit_rules (seq, rule)
                 SELECT next_rule, $1::json FROM petkit_control
                 WHERE (SELECT count(*) FROM petkit_rules) < $2
                 RETURNING ${RULE_COLUMNS}`,
          values: [JSON.stringify(rule), MAX_RULES],
        });
        const row = rows[0];
        if (row === undefined) return { result: undefined, changed: false };
        await client.query({ text: 'UPDATE petkit_control SET next_rule = next_rule + 1' });
        return { result: armedRule(row), changed: true };
      }),
    async list() {
      const { rows } = await database.query<RuleRow>({
        text: `SELECT ${RULE_COLUMNS} FROM petkit_rules ORDER BY seq DESC`,
      });
      return rows.map(armedRule);
    },
    enable(id, enabled) {
      const seq = seqOf(id);
      if (seq === undefined) return Promise.resolve(undefined);
      return change(async (client) => {
        // Under the control row's lock, no other replica switches this rule meanwhile.
        const found = await client.query<RuleRow>({
          text: `SELECT ${RULE_COLUMNS} FROM petkit_rules WHERE seq = $1`,
          values: [seq],
        });
        const row = found.rows[0];
        if (row === undefined) return { result: undefined, changed: false };
        if (row.enabled === enabled) return { result: armedRule(row), changed: false };
        const { rows } = await client.query<RuleRow>({
          text: `UPDATE petkit_rules SET enabled = $2 WHERE seq = $1 RETURNING ${RULE_COLUMNS}`,
          values: [seq, enabled],
        });
        return { result: armedRule(rows[0] as RuleRow), changed: true };
      });
    },
    disarm(id) {
      const seq = id === undefined ? null : seqOf(id);
      if (seq === undefined) return Promise.resolve(0);
      return change(async (client) => {
        const { rowCount } = await client.query({
          text: 'DELETE FROM petkit_rules WHERE $1::integer IS NULL OR seq = $1',
          values: [seq],
        });
        const gone = rowCount ?? 0;
        return { result: gone, changed: gone > 0 };
      });
    },
    fire(id) {
      const seq = seqOf(id);
      if (seq === undefined) return Promise.resolve(false);
      // One transaction per matching request: the row lock makes the replicas' matches one sequence.
      return database.transaction(async (client) => {
        const { rows } = await client.query<RuleRow>({
          name: 'petkit_rule_lock',
          text: `SELECT ${RULE_COLUMNS} FROM petkit_rules WHERE seq = $1 AND enabled FOR UPDATE`,
          values: [seq],
        });
        const row = rows[0];
        // Disarmed or switched off since the view was read.
        if (row === undefined) return false;
        const next = decideFire(row.rule, { matched: Number(row.matched), fired: Number(row.fired) });
        await client.query({
          name: 'petkit_rule_count',
          text: 'UPDATE petkit_rules SET matched = $2, fired = $3 WHERE seq = $1',
          values: [seq, next.matched, next.fired],
        });
        return next.fires;
      });
    },
    async setClock(clock, version) {
      // Compare and set: two replicas moving the clock at once must not lose one of the changes.
      const { rows } = await database.query<ViewRow>({
        text: `${bumpSql(', offset_ms = $1, frozen_at = $2').replace(' RETURNING', ' WHERE version = $3 RETURNING')}`,
        values: [clock.offsetMs, clock.frozenAt, version],
      });
      const row = rows[0];
      if (row === undefined) return false;
      adopt(row);
      return true;
    },
  };
  return {
    control,
    invalidate() {
      invalidated += 1;
    },
    adopt,
  };
}
