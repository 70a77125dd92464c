// The json reporter: the Report itself (shape documented in the README, versioned by schemaVersion).
import type { Report } from '../report.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
