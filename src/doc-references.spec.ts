// Every document the repository cites must be in the repository (docs/architecture.md#testing).
// Scans the tracked text files for citations of documents and names each one that cannot be
// followed, as file:line:
// - `*.md` names and `docs/...` paths, resolved against the citing file's folder or the root;
//   an external file is cited with its repository in front (`owner/repo [@ commit] path`) or by URL;
// - `#anchors` into a Markdown file (GitHub's heading slugs, or <a id>), `§N` / `section N`
//   (a numbered heading) and `, "Title"` (a heading with that text), README's included;
// - relative links and backticked repository paths in Markdown files;
// - numbered articles ("article 001"), which are nowhere in the repository (cite the article ids
//   of data/catalog/SOURCES.md instead), and absolute paths or the folders outside it that the
//   first design notes lived in.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { at, defined } from './domain/checked.js';

interface RepoView {
  /** Repository-relative paths (with /) of the files that exist. */
  files: ReadonlySet<string>;
  read(file: string): string;
}

interface DanglingCitation {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

/** Where the first design notes and source articles lived: never part of the repository. */
const OUTSIDE_FOLDERS = /(?<![\w-])(?:shared\/(?:design|reference)|reference\/articles)(?![\w-])/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)<>\]]+/gi;
/** A document path: ends in .md, or starts with docs/. An optional #anchor follows. */
const DOC_PATH = /(?<![\w./@$-])((?:\.{1,2}\/)*(?:[\w][\w.-]*\/)*[\w][\w.-]*\.md|docs\/(?:[\w.-]+\/)*[\w.-]*)(?![\w-])(#[\w-]+)?/g;
const ABSOLUTE_DOC = /(?<![\w.:/-])(\/[\w.-]+(?:\/[\w.-]+)*\.md)(?![\w-])/g;
/** What may follow a citation: a numbered section, or a quoted heading. */
const SECTION_AFTER = /^[,:]?\s*(?:§\s*|sections?\s+)(\d+)/i;
const TITLE_AFTER = /^[,:]?\s*\(?"([^"]+)"/;
const README_TITLE = /\bREADME(?!\.md)\s*,\s*"([^"]+)"/g;
const NUMBERED_ARTICLE = /\barticles?\s+(\d{1,4})(?![\w-])/gi;
const ARTICLE_ID = /\barticles?\s+(A\d+)\b/g;
const MARKDOWN_LINK = /\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const BACKTICKED = /`([^`\s]+)`/g;
/** `owner/repo`, `owner/repo @ 1a2b3c4` or `owner/repo v0.6.1` right before a path: an external file. */
const EXTERNAL_REPO_BEFORE = /(?:^|[\s([`'"])([\w.-]+)\/[\w.-]+(?:\s*@\s*[0-9a-f]{7,40}|\s+v\d[\w.]*)?[\s`'":]*$/;
const ARTICLE_IDS_FILE = 'data/catalog/SOURCES.md';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface Headings {
  titles: string[];
  anchors: Set<string>;
}

function headingsOf(markdown: string): Headings {
  const titles: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(at(m, 1));
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    titles.push(at(h, 1));
    const slug = slugOf(at(h, 1));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return { titles, anchors };
}

function danglingCitations(repo: RepoView, scanned: Iterable<string>): DanglingCitation[] {
  const dirs = new Set<string>();
  for (const f of repo.files) for (let d = path.posix.dirname(f); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  const topLevel = new Set([...repo.files, ...dirs].map((p) => at(p.split('/'), 0)));
  const headingCache = new Map<string, Headings>();
  const headings = (file: string): Headings => {
    let h = headingCache.get(file);
    if (!h) headingCache.set(file, (h = headingsOf(repo.read(file))));
    return h;
  };
  const articleIds = repo.files.has(ARTICLE_IDS_FILE) ? repo.read(ARTICLE_IDS_FILE) : '';
  const found: DanglingCitation[] = [];

  for (const file of scanned) {
    const dir = path.posix.dirname(file);
    const isMarkdown = file.endsWith('.md');
    /** The file or folder a citation names, or null. */
    const resolve = (target: string, fromRootToo: boolean): string | null => {
      const clean = target.replace(/\/$/, '');
      const candidates = [path.posix.normalize(path.posix.join(dir, clean))];
      if (fromRootToo && !clean.startsWith('.')) candidates.push(path.posix.normalize(clean));
      return candidates.find((c) => !c.startsWith('..') && (repo.files.has(c) || dirs.has(c))) ?? null;
    };
    /** Anchor, numbered section and quoted title after a citation of a Markdown file. */
    const checkInside = (target: string, anchor: string | undefined, after: string): string | null => {
      if (!target.endsWith('.md') || !repo.files.has(target)) return null;
      const h = headings(target);
      if (anchor && !h.anchors.has(anchor.slice(1))) return `${target} has no heading with the anchor ${anchor}`;
      const section = SECTION_AFTER.exec(after)?.[1];
      if (section && !h.titles.some((t) => new RegExp(`^(§\\s*)?${section}(\\.|\\s)`).test(t))) return `${target} has no section ${section}`;
      const title = TITLE_AFTER.exec(after)?.[1];
      if (title && !h.titles.some((t) => t.toLowerCase().includes(title.toLowerCase()))) return `${target} has no heading "${title}"`;
      return null;
    };

    repo
      .read(file)
      .split('\n')
      .forEach((raw, i) => {
        const report = (citation: string, reason: string): void => void found.push({ file, line: i + 1, citation, reason });
        const line = raw.replace(URL, (url) => ' '.repeat(url.length));

        for (const m of line.matchAll(OUTSIDE_FOLDERS)) report(m[0], 'a folder outside the repository');
        for (const m of line.matchAll(ABSOLUTE_DOC)) report(at(m, 1), 'an absolute path, outside the repository');
        for (const m of line.matchAll(NUMBERED_ARTICLE)) {
          report(m[0], 'a numbered article, which is not in the repository: cite it by its id in data/catalog/SOURCES.md (A1, ...) or by title');
        }
        for (const m of line.matchAll(ARTICLE_ID)) {
          if (!new RegExp(`^\\s*[-*]\\s+\\**${m[1]}\\b`, 'm').test(articleIds)) report(m[0], `${ARTICLE_IDS_FILE} lists no article ${m[1]}`);
        }
        for (const m of line.matchAll(README_TITLE)) {
          const reason = checkInside('README.md', undefined, `"${m[1]}"`);
          if (reason) report(m[0], reason);
        }

        /** Cited as `owner/repo [version] path`: a file of another repository. */
        const external = (at: number): boolean => {
          const owner = EXTERNAL_REPO_BEFORE.exec(line.slice(0, at))?.[1];
          return owner !== undefined && !topLevel.has(owner);
        };
        for (const m of line.matchAll(DOC_PATH)) {
          const [whole, target, anchor] = m as unknown as [string, string, string | undefined];
          const resolved = resolve(target, true);
          if (!resolved) {
            if (!external(m.index)) report(target, 'not in the repository');
            continue;
          }
          const reason = checkInside(resolved, anchor, line.slice(m.index + whole.length));
          if (reason) report(whole, reason);
        }

        if (!isMarkdown) return;
        for (const m of line.matchAll(MARKDOWN_LINK)) {
          const link = at(m, 1);
          if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
          const [target, anchor] = link.split('#', 2) as [string, string | undefined];
          const resolved = target === '' ? file : resolve(decodeURI(target), false);
          if (!resolved) report(link, 'a link to a path that is not in the repository');
          else {
            const reason = checkInside(resolved, anchor === undefined ? undefined : `#${anchor}`, '');
            if (reason) report(link, reason);
          }
        }
        for (const m of line.matchAll(BACKTICKED)) {
          const candidate = at(m, 1).replace(/[.,;:]$/, '');
          // Only whole repository paths: no globs, placeholders or options.
          if (!/^[\w.-]+(\/[\w.-]+)*\/?$/.test(candidate) || !candidate.includes('/')) continue;
          if (!topLevel.has(at(candidate.split('/'), 0)) || candidate.startsWith('.') || candidate.startsWith('node_modules')) continue;
          if (!resolve(candidate, true) && !external(m.index)) report(candidate, 'a repository path that does not exist');
        }
      });
  }
  const unique = new Map(found.map((d) => [`${d.file}:${d.line}:${d.citation}`, d]));
  return [...unique.values()];
}

/** Tracked and new (not ignored) files; a folder walk where git is not available. */
function repositoryFiles(root: string): string[] {
  let listed: string[];
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    const skip = new Set(['.git', 'node_modules', 'dist', '.data', 'coverage']);
    const walk = (rel: string): string[] =>
      readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (skip.has(e.name) || p === 'src/generated') return [];
        return e.isDirectory() ? walk(p) : [p];
      });
    listed = walk('');
  }
  return listed.filter((f) => existsSync(path.join(root, f)) && lstatSync(path.join(root, f)).isFile());
}

/** Generated or bulky files that cite nothing of ours. */
const NOT_SCANNED = /^(package-lock\.json|openapi\.json|schema\.gql|src\/generated\/)|\.(png|jpe?g|gif|ico|wasm|gz|zip)$/;
const THIS_FILE = 'src/doc-references.spec.ts';

function fixture(files: Record<string, string>): RepoView {
  return { files: new Set(Object.keys(files)), read: (f) => defined(files[f], `file ${f}`) };
}

describe(danglingCitations.name, () => {
  const docs = '# Cost model\n\n## Blended plan\n\n## 4. Buying capacity\n\n## 4. Buying capacity\n<a id="old-name"></a>\n';
  const check = (text: string, extra: Record<string, string> = {}) =>
    danglingCitations(fixture({ 'docs/cost-model.md': docs, 'src/a.ts': text, 'README.md': '# X\n## Admin scripts\n', ...extra }), ['src/a.ts']);

  it('names the file and line of a citation of a document that is not there', () => {
    expect(check('const a = 1;\n// see cost-model.md §4\n')).toEqual([
      { file: 'src/a.ts', line: 2, citation: 'cost-model.md', reason: 'not in the repository' },
    ]);
    expect(check('// DESIGN-NOTES.md, "Money"').map((d) => d.citation)).toEqual(['DESIGN-NOTES.md']);
  });

  it('follows docs/ paths and their anchors, numbered sections and quoted headings', () => {
    expect(check('// docs/cost-model.md#blended-plan, docs/cost-model.md §4, docs/cost-model.md#old-name')).toEqual([]);
    expect(check('// docs/cost-model.md#4-buying-capacity-1 docs/cost-model.md, "Blended plan"')).toEqual([]);
    expect(check('// docs/cost-model.md#blended')[0]?.reason).toBe('docs/cost-model.md has no heading with the anchor #blended');
    expect(check('// docs/cost-model.md §5')[0]?.reason).toBe('docs/cost-model.md has no section 5');
    expect(check('// docs/cost-model.md, "Invariants"')[0]?.reason).toBe('docs/cost-model.md has no heading "Invariants"');
    expect(check('// docs/api.md')[0]?.citation).toBe('docs/api.md');
  });

  it('resolves a name against the citing folder first, then the root', () => {
    expect(check('// see SOURCES.md', { 'src/SOURCES.md': '' })).toEqual([]);
    expect(check('// see ../README.md and README.md')).toEqual([]);
    expect(check('// see SOURCES.md', { 'data/SOURCES.md': '' })).toHaveLength(1);
  });

  it('checks README sections cited by title', () => {
    expect(check('// see README, "Admin scripts"')).toEqual([]);
    expect(check('// see README, "Database tooling"')[0]?.reason).toBe('README.md has no heading "Database tooling"');
  });

  it('lets external files through when their repository or URL is named, and only then', () => {
    expect(check("// 'NVIDIA/TensorRT-LLM v0.6.1 docs/source/performance.md', stas00/ml-engineering `compute/accelerator/README.md` @ 7bc7c30")).toEqual([]);
    expect(check('// https://github.com/x/y/blob/main/docs/missing.md and owner/repo@abcdef0 notes/a.md')).toEqual([]);
    expect(check("// 'TensorRT-LLM v0.6.1 docs/source/performance.md'").map((d) => d.citation)).toEqual(['docs/source/performance.md']);
    // A path of this repository in front does not make the next one external.
    expect(check('// docs/cost-model.md blogs/x.md')).toHaveLength(1);
  });

  it('refuses numbered articles, unknown article ids, absolute paths and outside folders', () => {
    const sources = { [ARTICLE_IDS_FILE]: '- A1 "KI-Inference in der Cloud" (2026-03-27)\n' };
    expect(check('// the figure of article 000, article A1', sources).map((d) => d.citation)).toEqual(['article 000']);
    expect(check('// article A7', sources)[0]?.reason).toBe(`${ARTICLE_IDS_FILE} lists no article A7`);
    expect(check('// an article 2026-03-27 quote')).toEqual([]);
    expect(check('# from /work/notes/facts.md').map((d) => d.citation)).toEqual(['/work/notes/facts.md']);
    expect(check('# figures from shared/reference/articles').map((d) => d.citation)).toEqual(['shared/reference']);
  });

  it('checks relative links and backticked repository paths in Markdown files only', () => {
    const md =
      '[cost](cost-model.md#blended-plan) [x](missing.md) [top](#cost-model) [web](https://example.org/a.md)\n' +
      '`src/a.ts` `src/gone.ts` `src/**/*.spec.ts` `dist/src/main.js` owner/repo `src/theirs.ts`\n';
    const files = { 'docs/cost-model.md': docs, 'docs/index.md': md, 'src/a.ts': '[x](missing.txt)' };
    expect(danglingCitations(fixture(files), ['docs/index.md', 'src/a.ts']).map((d) => `${d.line} ${d.citation}`)).toEqual([
      '1 missing.md',
      '1 #cost-model',
      '2 src/gone.ts',
    ]);
  });
});

describe('documents cited in the repository', () => {
  it('all exist, with the sections and anchors cited', () => {
    const root = process.cwd();
    const files = repositoryFiles(root);
    const repo: RepoView = { files: new Set(files), read: (f) => readFileSync(path.join(root, f), 'utf8') };
    const scanned = files.filter((f) => f !== THIS_FILE && !NOT_SCANNED.test(f) && !repo.read(f).includes('\0'));
    expect(scanned.length).toBeGreaterThan(100);
    const dangling = danglingCitations(repo, scanned).map((d) => `${d.file}:${d.line} ${d.citation}: ${d.reason}`);
    expect(dangling).toEqual([]);
  });
});
