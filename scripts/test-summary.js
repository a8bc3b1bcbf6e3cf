// Sums the JSON reports of jest and vitest and prints the closing line CI reads: "N passed, N failed".
// A failed step that produced no test report (lint, typecheck, format, build) counts as one failure.
const fs = require('node:fs');
const path = require('node:path');

const [dir, stepStatus] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of ['unit.json', 'integration.json', 'console.json', 'e2e.json']) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) continue;
  const report = JSON.parse(fs.readFileSync(full, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that failed to load has no failed tests but must still fail the run.
  for (const suite of report.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).every((a) => a.status !== 'failed'))
      failed += 1;
  }
}
const steps = fs.existsSync(path.join(dir, 'steps.txt'))
  ? fs.readFileSync(path.join(dir, 'steps.txt'), 'utf8')
  : '';
const failedSteps = steps
  .split('\n')
  .filter((l) => l.endsWith('FAILED'))
  .map((l) => l.replace(/: FAILED$/, ''));
const reported = new Set(['unit tests', 'integration tests', 'console tests', 'browser tests']);
failed += failedSteps.filter((s) => !reported.has(s)).length;
if (failed === 0 && stepStatus !== '0') failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
