// The pretty reporter: a table of checks × operations, the findings, a coverage line, the verdict.
import { CHECKS } from '../checks.js';
import type { Outcome, Report } from '../report.js';
import { skippedByChoice } from '../results.js';
import { printable } from './printable.js';
import { describeFinding } from './text.js';

export interface PrettyOptions {
  /** ANSI colours (the CLI turns them off for NO_COLOR and when not on a terminal). */
  readonly color: boolean;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;

const CELLS: Record<Outcome, { text: string; color: keyof typeof CODES }> = {
  passed: { text: '✓ pass', color: 'green' },
  failed: { text: '✗ FAIL', color: 'red' },
  warning: { text: '! warn', color: 'yellow' },
  skipped: { text: '- skip', color: 'dim' },
};

export function renderPretty(report: Report, options: PrettyOptions): string {
  const paint = (text: string, color: keyof typeof CODES) =>
    options.color ? `\u001b[${CODES[color]}m${text}\u001b[0m` : text;
  const operations = [...new Set(report.results.map((result) => result.operationId))];
  const checkWidth = Math.max(...CHECKS.map((check) => check.id.length)) + 2;
  const columnWidth = Math.max(...operations.map((operation) => operation.length)) + 2;
  const out: string[] = [];
  out.push(
    `petkit contract  ${printable(report.baseUrl)}  seed ${report.seed}  examples ${report.examples}${report.readOnly ? '  read-only' : ''}`,
    '',
    `${''.padEnd(checkWidth)}${operations.map((operation) => operation.padEnd(columnWidth)).join('')}`.trimEnd(),
  );
  const summary = `${report.requests} request${report.requests === 1 ? '' : 's'} in ${(report.durationMs / 1000).toFixed(1)} s, seed ${report.seed} (--seed ${report.seed} repeats the cases)`;
  const stopped =
    report.aborted === null
      ? ''
      : paint(`verdict: stopped (exit 2): ${printable(report.aborted.message)}`, 'red') +
        (report.aborted.curl === null ? '' : `\n  ${printable(report.aborted.curl)}`);
  if (report.aborted !== null && report.results.every((result) => result.outcome === 'skipped')) {
    // Stopped before any check could say anything: the table would be all "skip".
    return `${out[0]}\n\n${stopped}\n${summary}\n`;
  }
  for (const check of CHECKS) {
    let row = check.id.padEnd(checkWidth);
    for (const operation of operations) {
      const result = report.results.find((r) => r.check === check.id && r.operationId === operation);
      if (result === undefined) row += paint('·'.padEnd(columnWidth), 'dim');
      else row += paint(CELLS[result.outcome].text.padEnd(columnWidth), CELLS[result.outcome].color);
    }
    out.push(row.trimEnd());
  }
  const skipped = report.results.filter(
    (result) => result.outcome === 'skipped' && result.reason !== undefined,
  );
  const reasons = new Map<string, string[]>();
  for (const result of skipped) {
    const reason = result.reason ?? '';
    reasons.set(reason, [...(reasons.get(reason) ?? []), `${result.check} × ${result.operationId}`]);
  }
  if (reasons.size > 0) {
    out.push('');
    for (const [reason, which] of reasons)
      out.push(paint(`skipped (${printable(reason)}): ${which.join(', ')}`, 'dim'));
  }
  if (report.findings.length > 0) {
    out.push('', paint(`Findings (${report.findings.length})`, 'bold'));
    report.findings.forEach((finding, i) => {
      const [head, ...rest] = describeFinding(finding).split('\n');
      const mark = finding.severity === 'warning' ? paint('!', 'yellow') : paint('✗', 'red');
      out.push('', `${i + 1}. ${mark} ${head}`, ...rest.map((line) => `  ${line}`));
    });
  }
  const exercised = report.coverage.filter((entry) => entry.exercised);
  const missing = report.coverage.filter((entry) => !entry.exercised);
  const byOperation = (entries: typeof report.coverage) =>
    [...new Set(entries.map((entry) => entry.operationId))]
      .map(
        (id) =>
          `${id} ${entries
            .filter((entry) => entry.operationId === id)
            .map((entry) => entry.status)
            .join(' ')}`,
      )
      .join('; ');
  out.push(
    '',
    `coverage: ${exercised.length} of ${report.coverage.length} documented (operation, status) pairs exercised` +
      (missing.length > 0 ? `; not exercised: ${byOperation(missing)}` : ''),
  );
  const failed = report.results.filter((result) => result.outcome === 'failed').length;
  const warned = report.results.filter((result) => result.outcome === 'warning').length;
  // A verdict on part of the contract says so: the pairs the run did not get to, or could not
  // conclude on, are counted beside it (those left out on purpose are not).
  const unjudged = report.results.filter(
    (result) => result.outcome === 'skipped' && !skippedByChoice(result.reason),
  ).length;
  const partly =
    unjudged === 0
      ? ''
      : `; ${unjudged} of ${report.results.filter((result) => !skippedByChoice(result.reason)).length} check × operation pairs not judged (skipped, above)`;
  if (report.aborted !== null) {
    out.push(stopped, summary);
  } else if (failed > 0) {
    out.push(
      paint(`verdict: ✗ ${failed} check × operation pair${failed === 1 ? '' : 's'} failed (exit 1)`, 'red') +
        (warned > 0 ? `, ${warned} warning${warned === 1 ? '' : 's'}` : '') +
        partly,
      summary,
    );
  } else {
    out.push(
      paint('verdict: ✓ conformant (exit 0)', 'green') +
        (warned > 0 ? `, ${warned} warning${warned === 1 ? '' : 's'}` : '') +
        partly,
      summary,
    );
  }
  return `${out.join('\n')}\n`;
}
