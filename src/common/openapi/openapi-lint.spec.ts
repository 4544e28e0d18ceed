// The committed openapi.json (which test/contract.e2e-spec.ts holds equal to the served document)
// passes `redocly lint` with the recommended rules: no error, no warning. The exceptions are in
// redocly.yaml and .redocly.lint-ignore.yaml, each with its reason.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe('openapi.json under redocly lint (recommended rules)', () => {
  it('has 0 errors and 0 warnings', async () => {
    const { stdout } = await promisify(execFile)('node_modules/.bin/redocly', ['lint', 'openapi.json', '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' })); // exit 1 when it finds errors: read the report anyway
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    const found = report.problems.map((p) => `${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
