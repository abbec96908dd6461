/**
 * Runs Electronegativity's scanner (its programmatic runner, the same code its CLI calls)
 * on the folder given as argv[2] and writes the findings as a JSON array to the file argv[3]:
 * `[{ "issue": "<CHECK_ID>", "severity": "HIGH"|"MEDIUM"|"LOW"|"INFORMATIONAL", "file": "<path>" }]`.
 *
 * Offline on purpose: AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK downloads Electron's release list
 * from GitHub with no timeout (it hung CI, which has no route out), so it is excluded; the
 * Electron version is given instead of read from a lockfile. (Its translation download has a
 * one-second timeout and falls back to the bundled strings.)
 */
import fs from 'node:fs';
import path from 'node:path';
import run from '@doyensec/electronegativity';

run(
  {
    input: path.resolve(process.argv[2]),
    output: undefined,
    isSarif: false,
    customScan: [],
    excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
    isRelative: false,
    isVerbose: false,
    electronUpgrade: undefined,
    electronVersionOverride: '45.5.0',
    parserPlugins: [],
  },
  false,
).then(
  (r) => {
    for (const e of r.errors) process.stderr.write(`electronegativity could not parse ${e.file}: ${e.message ?? e.error ?? ''}\n`);
    const findings = r.issues.map((i) => ({ issue: i.id, severity: i.severity.name, file: i.file }));
    fs.writeFileSync(process.argv[3], JSON.stringify(findings));
  },
  (err) => {
    process.stderr.write(`electronegativity failed: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
