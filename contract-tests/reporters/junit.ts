// The junit reporter: one testcase per check and operation, through junit-report-builder. What the
// target sent is shown as the pretty reporter shows it (printable.ts), not dropped by the XML writer.
import junitModule from 'junit-report-builder';
import type { Report } from '../report.js';
import { printable } from './printable.js';
import { describeFinding } from './text.js';

// junit-report-builder is CommonJS; under NodeNext its default export arrives as the module object,
// whose `default` TypeScript sees but Node does not set: at runtime the builder is the object itself.
const junit = junitModule as unknown as (typeof junitModule)['default'] & typeof junitModule;

export function renderJunit(report: Report): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(`petkit contract ${printable(report.baseUrl)}`)
    .timestamp(report.startedAt)
    .time(report.durationMs / 1000)
    .property('seed', String(report.seed))
    .property('examples', String(report.examples))
    .property('requests', String(report.requests));
  for (const result of report.results) {
    const findings = report.findings.filter(
      (finding) => finding.check === result.check && finding.operationId === result.operationId,
    );
    const testCase = suite.testCase().className(result.check).name(`${result.check} × ${result.operationId}`);
    const text = findings.map(describeFinding).join('\n\n');
    if (result.outcome === 'failed') {
      testCase.failure(printable(findings[0]?.message ?? 'failed'), result.check).stacktrace(text);
    } else if (result.outcome === 'skipped') {
      testCase.skipped().standardOutput(printable(result.reason ?? 'skipped'));
    } else if (result.outcome === 'warning') {
      testCase.standardOutput(`warning (does not fail the run):\n${text}`);
    }
  }
  if (report.aborted !== null) {
    suite
      .testCase()
      .className('petkit')
      .name('run')
      .error(printable(report.aborted.message), report.aborted.code);
  }
  return builder.build();
}
