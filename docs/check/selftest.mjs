// selftest.mjs proves the checker fails on what it must catch, and passes
// clean docs, before it is trusted with the repository's.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { test } from 'node:test';

const check = (dir) => spawnSync(process.execPath, ['check.mjs', dir], { encoding: 'utf8' });

test('clean docs pass', () => {
  const r = check('testdata/good');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1 markdown files: links resolve, 1 Mermaid blocks parse; 1 code files: comments' references resolve/);
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
    /refs.go:4: nowhere.md is not a file of the repository/,
    /refs.go:4: \.\.\/good\/README.md is not a file of the repository/,
    /refs.go:5: no heading #nowhere in README.md/,
    /refs.go:6: code.go:99: code.go has \d+ lines/,
    /refs.go:6: cites NOTES by section, and no NOTES.md is in the repository/,
    /web\/src\/view.js:1: \.\.\/\.\.\/nothing.md is not a file of the repository/,
    /README.md:12: \.\.\/good\/README.md is outside the repository/,
    /12 problem\(s\)/,
  ]) {
    assert.match(r.stderr, want);
  }
});
