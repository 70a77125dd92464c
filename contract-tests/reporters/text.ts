// Shared wording of findings, for the pretty reporter, JUnit failure bodies and the vitest front.
import { type Finding, MAX_CASES } from '../finding.js';
import { printable } from './printable.js';

export function describeFinding(finding: Finding): string {
  const lines = [
    `${finding.check} · ${finding.operationId} · ${finding.status ?? 'no response'}${finding.severity === 'warning' ? ' (warning)' : ''}`,
    `  ${finding.message}${finding.occurrences > 1 ? ` (seen ${finding.occurrences} times)` : ''}`,
    `  expected: ${finding.expected}`,
  ];
  // One cause, several cases (every bad key answered 403): each case on a line of its own.
  const cases = finding.cases ?? [];
  if (cases.length > 1) {
    const full = cases.length >= MAX_CASES && finding.occurrences > cases.length;
    lines.push(
      `  cases (${finding.cause ?? 'one cause'}):`,
      ...cases.map((text) => `    - ${text}`),
      ...(full ? [`    (the first ${MAX_CASES}; seen ${finding.occurrences} times in all)`] : []),
    );
  }
  if (finding.instancePath !== '') {
    const others = finding.instancePaths.filter((path) => path !== finding.instancePath);
    const also =
      others.length === 0
        ? ''
        : ` (also ${others.slice(0, 5).join(', ')}${others.length > 5 ? `, +${others.length - 5} more` : ''})`;
    lines.push(`  at: ${finding.instancePath}${also}   rule: ${finding.schemaPath}`);
  }
  if (finding.response === null) lines.push('  got: no response');
  else {
    const headers = Object.entries(finding.response.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ');
    lines.push(`  got: ${finding.response.status}${headers === '' ? '' : ` (${headers})`}`);
    if (finding.response.bodyExcerpt !== '') lines.push(`       ${finding.response.bodyExcerpt}`);
  }
  lines.push(`  ${finding.curl}`);
  // Each line is one line of data, whatever the target put in it (an ESC in its body).
  return lines.map(printable).join('\n');
}
