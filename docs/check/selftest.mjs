// selftest.mjs proves the checker fails on what it must catch, and passes
// clean docs, before it is trusted with the repository's.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { test } from 'node:test';

const check = (dir) => spawnSync(process.execPath, ['check.mjs', dir], { encoding: 'utf8' });

test('clean docs pass', () => {
  const r = check('testdata/good');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1 markdown files: links resolve, 1 Mermaid blocks parse/);
});

test('each kind of problem fails, and is named', () => {
  const r = check('testdata/bad');
  assert.equal(r.status, 1, r.stdout);
  for (const want of [
    /README.md:3: nowhere.go does not exist/,
    /README.md:4: no heading #nowhere in README.md/,
    /README.md:5: code.go#L99: code.go has \d+ lines/,
    /README.md:6: code.go#L1 is meant to show `answer`/,
    /README.md:8: Mermaid block does not parse/,
    /5 problem\(s\)/,
  ]) {
    assert.match(r.stderr, want);
  }
});
