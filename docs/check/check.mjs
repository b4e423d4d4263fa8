// check.mjs checks every markdown file under a repository:
//
//   - each relative link resolves: the file exists; a #heading anchor names a
//     heading of that file (GitHub's slugs); a #L12 or #L12-L20 anchor is within
//     the file, and when the link text is inline code (`rank`), that name
//     appears on those lines, so a link to "the line that does it" fails when
//     the code moves instead of quietly pointing elsewhere;
//   - each ```mermaid block parses with Mermaid itself;
//   - each cross-reference in a comment of the code (Go files, and the view's
//     JavaScript under web/src) resolves inside the repository: a markdown
//     link, a path (docs/FALLBACKS.md, tools/steps.go, listen.go), with a
//     #heading, #L12 or :12 after it, and a document cited by section
//     (NOTES §4), which must be a markdown file of the repository. A path is
//     read from the repository's root, from the file's folder or from a
//     folder above it; one whose first part has a dot (github.com/...) names
//     another module and is not checked, and neither is a name in quotes
//     ("notes.txt": an example, not a reference) or a line of a Go doc
//     comment's code block (indented by a tab), as code in markdown is not.
//
// External links are not fetched (CI has no internet); their syntax only.
// Usage: node check.mjs <repository root>. Exit status 1 lists every problem.

import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { JSDOM } from 'jsdom';

const root = path.resolve(process.argv[2] ?? '.');
const skip = new Set(['node_modules', '.git', 'testdata', 'dist']);

function filesEndingIn(dir, ends) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesEndingIn(p, ends));
    else if (ends.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

const markdownFiles = (dir) => filesEndingIn(dir, ['.md']);

// blocks splits markdown into prose lines (with their numbers) and fenced
// code blocks, so links inside code are not links.
function parse(text) {
  const prose = [];
  const fences = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const m = line.match(/^\s*(```+|~~~+)\s*([\w-]*)/);
    if (fence) {
      if (m && line.trim().startsWith(fence.marker)) {
        fences.push(fence);
        fence = null;
      } else fence.lines.push(line);
    } else if (m) {
      fence = { marker: m[1], lang: m[2], line: i + 1, lines: [] };
    } else prose.push({ n: i + 1, line: line.replace(/`[^`]*`/g, (c) => (c.includes('](') ? '' : c)) });
  });
  return { prose, fences };
}

function headings(file) {
  const slugger = new GithubSlugger();
  const { prose } = parse(readFileSync(file, 'utf8'));
  return new Set(prose.filter((p) => /^#{1,6}\s/.test(p.line)).map((p) => slugger.slug(p.line.replace(/^#+\s*/, '').trim())));
}

const problems = [];
const files = markdownFiles(root);
const mermaidBlocks = [];

for (const file of files) {
  const rel = path.relative(root, file);
  const { prose, fences } = parse(readFileSync(file, 'utf8'));
  for (const f of fences) if (f.lang === 'mermaid') mermaidBlocks.push({ rel, ...f });

  for (const { n, line } of prose) {
    for (const m of line.matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const [, label, target] = m;
      const where = `${rel}:${n}`;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (!/^(https?|mailto):/.test(target)) problems.push(`${where}: unexpected link scheme in ${target}`);
        continue;
      }
      const [pathPart, anchor] = target.split('#');
      const dest = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
      if (!existsSync(dest)) {
        problems.push(`${where}: ${target} does not exist`);
        continue;
      }
      if (path.relative(root, dest).startsWith('..')) {
        problems.push(`${where}: ${target} is outside the repository (a clone does not have it)`);
        continue;
      }
      if (anchor === undefined) continue;
      const lines = anchor.match(/^L(\d+)(?:-L(\d+))?$/);
      if (lines) {
        const from = Number(lines[1]);
        const to = Number(lines[2] ?? lines[1]);
        const text = readFileSync(dest, 'utf8').split('\n');
        if (from < 1 || to < from || to > text.length) {
          problems.push(`${where}: ${target}: ${path.relative(root, dest)} has ${text.length} lines`);
          continue;
        }
        const code = label.match(/^`([^`]+)`$/);
        if (code) {
          const name = code[1].replace(/\(.*\)$/, '').split('.').pop();
          const span = text.slice(from - 1, to).join('\n');
          if (!new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(span)) {
            problems.push(`${where}: ${target} is meant to show \`${name}\`, but those lines do not mention it (the code moved? update the line number)`);
          }
        }
      } else if (dest.endsWith('.md')) {
        if (!headings(dest).has(anchor)) problems.push(`${where}: no heading #${anchor} in ${path.relative(root, dest)}`);
      }
    }
  }
}

// comments is every comment of a Go or JavaScript source, as
// { n: line, text }, one entry a line: a tokenizer that knows the two
// languages' strings, so a "//" inside a string is no comment.
function comments(src) {
  const out = [];
  let line = 1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\n') line++;
    else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < src.length && src[i] !== c; i++) {
        if (src[i] === '\\' && c !== '`') i++;
        else if (src[i] === '\n') {
          line++;
          if (c !== '`') break;
        }
      }
    } else if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i);
      out.push({ n: line, text: src.slice(i + 2, end < 0 ? src.length : end) });
      i = (end < 0 ? src.length : end) - 1;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const body = src.slice(i + 2, end < 0 ? src.length : end);
      body.split('\n').forEach((text, k) => out.push({ n: line + k, text }));
      line += body.split('\n').length - 1;
      i = (end < 0 ? src.length : end + 2) - 1;
    }
  }
  return out;
}

// The files a comment may name, by their ending.
const named = 'go|md|mjs|js|json|ya?ml|sh|html|css|txt|csv|tsv|toml|mod|png';
const pathRE = new RegExp(
  String.raw`(?<![\w./@:-])((?:\.\.?/)*(?:[\w.-]+/)*[\w-][\w.-]*\.(?:${named}))(?![\w/-])(?:#([\w.-]+)|:(\d+)(?:-(\d+))?)?`,
  'g',
);
const sectionRE = /\b([A-Z][A-Z0-9_-]{2,})(?:\.md)?,?\s*(?:§|section\s+)\d/g;
const linkRE = /\[([^\]]*)\]\(([^)\s]+)\)/g;

// resolveFrom finds ref from the repository's root, the file's folder or a
// folder between them; null when none has it inside the repository.
function resolveFrom(file, ref) {
  const dirs = [root];
  for (let d = path.dirname(file); d.startsWith(root); d = path.dirname(d)) {
    dirs.push(d);
    if (d === root) break;
  }
  for (const d of dirs) {
    const p = path.resolve(d, ref);
    const rel = path.relative(root, p);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && existsSync(p)) return p;
  }
  return null;
}

// checkTarget checks an anchor (#heading, #L12) or a line (:12) on a
// resolved file.
function checkTarget(where, ref, dest, anchor, from, to) {
  const lines = () => readFileSync(dest, 'utf8').split('\n').length;
  if (anchor !== undefined) {
    const l = anchor.match(/^L(\d+)(?:-L(\d+))?$/);
    if (l) {
      from = l[1];
      to = l[2];
    } else if (dest.endsWith('.md')) {
      if (!headings(dest).has(anchor)) problems.push(`${where}: no heading #${anchor} in ${path.relative(root, dest)}`);
      return;
    } else {
      problems.push(`${where}: ${ref}#${anchor}: only a markdown file has #headings; use #L12 or :12 for a line`);
      return;
    }
  }
  if (from !== undefined) {
    const a = Number(from);
    const b = Number(to ?? from);
    const shown = anchor !== undefined ? `${ref}#${anchor}` : `${ref}:${from}${to ? `-${to}` : ''}`;
    if (a < 1 || b < a || b > lines()) problems.push(`${where}: ${shown}: ${path.relative(root, dest)} has ${lines()} lines`);
  }
}

const codeFiles = [
  ...filesEndingIn(root, ['.go']),
  ...(existsSync(path.join(root, 'web', 'src')) ? filesEndingIn(path.join(root, 'web', 'src'), ['.js']) : []),
];
const markdownNames = new Set(files.map((f) => path.basename(f, '.md')));
for (const file of codeFiles) {
  const rel = path.relative(root, file);
  for (const { n, text } of comments(readFileSync(file, 'utf8'))) {
    if (file.endsWith('.go') && text.startsWith('\t')) continue;
    const where = `${rel}:${n}`;
    // Links first; their targets are not read again as paths.
    let rest = text.replace(linkRE, (_, label, target) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return ' ';
      const [pathPart, anchor] = target.split('#');
      const dest = pathPart === '' ? file : resolveFrom(file, decodeURIComponent(pathPart));
      if (!dest) problems.push(`${where}: ${target} is not a file of the repository`);
      else checkTarget(where, pathPart, dest, anchor);
      return ` ${label} `;
    });
    // A URL is not a path of this repository.
    rest = rest.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
    for (const m of rest.matchAll(pathRE)) {
      const [whole, ref, anchor, from, to] = m;
      const before = rest[m.index - 1];
      if ((before === '"' || before === "'" || before === '`') && rest[m.index + whole.length] === before) continue;
      const first = ref.replace(/^(\.\.?\/)+/, '').split('/')[0];
      if (ref.includes('/') && first.includes('.') && !/^\.\.?\//.test(ref) && !existsSync(path.join(root, first))) continue; // another module
      const dest = resolveFrom(file, ref);
      if (!dest) {
        problems.push(`${where}: ${ref} is not a file of the repository`);
        continue;
      }
      checkTarget(where, ref, dest, anchor, from, to);
    }
    for (const m of rest.matchAll(sectionRE)) {
      if (!markdownNames.has(m[1])) problems.push(`${where}: cites ${m[1]} by section, and no ${m[1]}.md is in the repository`);
    }
  }
}

// Mermaid needs a DOM to load; parsing itself renders nothing.
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });
for (const b of mermaidBlocks) {
  try {
    await mermaid.parse(b.lines.join('\n'));
  } catch (e) {
    problems.push(`${b.rel}:${b.line}: Mermaid block does not parse: ${String(e.message ?? e).split('\n').slice(0, 3).join(' ')}`);
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem(s) in ${files.length} markdown files and ${codeFiles.length} code files.`);
  process.exit(1);
}
console.log(`${files.length} markdown files: links resolve, ${mermaidBlocks.length} Mermaid blocks parse; ${codeFiles.length} code files: comments' references resolve.`);
