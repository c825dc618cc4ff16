#!/usr/bin/env node
// Runs the JavaScript test suites with node:test and prints a one-line summary per suite
// (folder).
//
// Why a wrapper instead of `node --test tests/*/*.test.mjs`: node --test reports a file
// that declares no tests as one passing test, so an empty suite, a file whose tests were
// all deleted, or a suite where everything is skipped would still look green. Here every
// suite folder must contain *.test.mjs files, every file must declare tests, and each
// suite must actually run at least one; otherwise the run fails.
//
// Usage: node scripts/run-node-tests.mjs DIR [DIR...]   (each DIR holds *.test.mjs files)
//
// All files run in one pool, in the order of the folders given (`npm test` names the browser
// suite first: its files are the long ones, and the short files of the others fill the end).
// Files run two at a time (TEST_FILE_CONCURRENCY=N to change it): node:test's
// default on a two-core machine is one, and a browser test spends much of its time waiting on
// the page, so a second file keeps the processor busy. Each file starts its own server on a
// free port and its own browser, so files never share state.

import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec as SpecReporter } from 'node:test/reporters';

function fileConcurrency() {
  const requested = process.env.TEST_FILE_CONCURRENCY;
  if (requested === undefined || requested === '') return Math.max(2, os.availableParallelism());
  const count = Number(requested);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`TEST_FILE_CONCURRENCY must be a whole number of at least 1, not '${requested}'`);
    process.exit(2);
  }
  return count;
}

async function listTestFiles(directory) {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.mjs'))
    .map((entry) => path.resolve(directory, entry.name))
    .sort();
}

// Runs the files of every suite in one pool, so that the short files of one suite fill the time
// the other slot would sit idle while the last long file of another finishes; the counts are kept
// per suite (folder).
async function runSuites(directories) {
  const results = [];
  const suiteOf = new Map();
  for (const directory of directories) {
    const files = await listTestFiles(directory);
    const result = { directory, files: files.length, passed: 0, failed: 0, skipped: 0, problems: [], list: files };
    if (files.length === 0) result.problems.push(`no *.test.mjs files in ${directory}`);
    for (const file of files) suiteOf.set(file, result);
    results.push(result);
  }
  const files = results.flatMap((result) => result.list);
  console.log(`\n=== ${results.map((r) => `${r.directory} (${r.files} file${r.files === 1 ? '' : 's'})`).join(', ')} ===`);
  if (files.length === 0) return results;

  const filesWithTests = new Set();
  const isCountable = (event) => event.details?.type !== 'suite' && event.name !== event.file;
  const stream = run({ files, concurrency: fileConcurrency() });
  stream.on('test:pass', (event) => {
    if (!isCountable(event)) return;
    filesWithTests.add(event.file);
    const result = suiteOf.get(event.file);
    if (event.skip !== undefined || event.todo !== undefined) result.skipped += 1;
    else result.passed += 1;
  });
  stream.on('test:fail', (event) => {
    filesWithTests.add(event.file);
    const result = suiteOf.get(event.file) ?? results[0];
    // A failing `todo` test is expected to fail and does not fail the run.
    if (event.todo !== undefined) result.skipped += 1;
    else if (isCountable(event)) result.failed += 1;
    // A file that cannot load, or a suite whose body or hook throws, fails as a whole.
    else result.problems.push(`${path.relative('.', event.file ?? '?')}: '${event.name}' failed`);
  });
  const reporter = stream.compose(new SpecReporter());
  reporter.pipe(process.stdout, { end: false });
  await finished(reporter);

  for (const file of files) {
    if (!filesWithTests.has(file)) suiteOf.get(file).problems.push(`${path.relative('.', file)} declares no tests`);
  }
  for (const result of results) {
    if (result.files > 0 && result.passed === 0 && result.failed === 0) result.problems.push(`${result.directory} ran no tests`);
  }
  return results;
}

const directories = process.argv.slice(2);
if (directories.length === 0) {
  console.error('usage: node scripts/run-node-tests.mjs DIR [DIR...]');
  process.exit(2);
}

const results = await runSuites(directories);

console.log('\nJavaScript suites:');
let ok = true;
for (const r of results) {
  const good = r.failed === 0 && r.problems.length === 0;
  ok &&= good;
  console.log(
    `  ${good ? 'PASS' : 'FAIL'} ${r.directory}: ${r.passed} passed, ${r.failed} failed, ` +
      `${r.skipped} skipped (${r.files} file${r.files === 1 ? '' : 's'})`,
  );
  for (const problem of r.problems) console.log(`       ${problem}`);
}
process.exitCode = ok ? 0 : 1;
