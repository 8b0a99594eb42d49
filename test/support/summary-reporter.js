/** Ends the run with one plain line, "Summary: N passed, N failed", that any CI can read. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`\nSummary: ${results.numPassedTests} passed, ${results.numFailedTests} failed\n`);
  }
}
module.exports = SummaryReporter;
