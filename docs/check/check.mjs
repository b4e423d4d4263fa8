// check.mjs checks every markdown file under a repository:
//
//   - each relative link resolves: the file exists; a #heading anchor names a
//     heading of that file (GitHub's slugs); a #L12 or #L12-L20 anchor is within
//     the file, and when the link text is inline code (`rank`), that name
//     appears on those lines, so a link to "the line that does it" fails when
//     the code moves instead of quietly pointing elsewhere;
//   - each ```mermaid block parses with Mermaid itself.
//
// External links are not fetched (CI has no internet); their syntax only.
// Usage: node check.mjs <repository root>. Exit status 1 lists every problem.

import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { JSDOM } from 'jsdom';

const root = path.resolve(process.argv[2] ?? '.');
const skip = new Set(['node_modules', '.git', 'testdata']);

function markdownFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

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
  console.error(`\n${problems.length} problem(s) in ${files.length} markdown files.`);
  process.exit(1);
}
console.log(`${files.length} markdown files: links resolve, ${mermaidBlocks.length} Mermaid blocks parse.`);
