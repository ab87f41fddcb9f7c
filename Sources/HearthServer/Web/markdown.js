// Markdown to DOM for model output. Everything is built with createElement and textContent: no HTML
// from the model is ever parsed, links are limited to http(s) and mailto, and images are shown as
// links, never loaded.

import { copyText } from "/assets/api.js";
import { highlight } from "/assets/highlight.js";

const SAFE_LINK = /^(https?:|mailto:)/i;
/// Quotes and lists nested deeper than this are shown as text.
const MAX_BLOCK_DEPTH = 16;

export function renderMarkdown(source, depth = 0) {
  const root = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(/^\s*(```|~~~)\s*([\w+#.-]*)\s*$/);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i += 1; // closing fence, or the end while still streaming
      root.append(codeBlock(body.join("\n"), fence[2]));
      continue;
    }
    if (/^\s*$/.test(line)) { i += 1; continue; }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      const h = document.createElement(`h${Math.min(heading[1].length + 2, 6)}`);
      appendInline(h, heading[2]);
      root.append(h);
      i += 1;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) { root.append(document.createElement("hr")); i += 1; continue; }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ""));
      const block = document.createElement("blockquote");
      if (depth + 1 >= MAX_BLOCK_DEPTH) {
        const p = document.createElement("p");
        p.textContent = quoted.join("\n");
        block.append(p);
      } else {
        block.append(renderMarkdown(quoted.join("\n"), depth + 1));
      }
      root.append(block);
      continue;
    }
    if (listItem(line)) {
      const [element, next] = list(lines, i, depth);
      root.append(element);
      i = next;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
      root.append(table(rows));
      continue;
    }
    const paragraph = [];
    while (i < lines.length && lines[i].trim() !== "" && !startsBlock(lines[i])) paragraph.push(lines[i++]);
    if (paragraph.length === 0) paragraph.push(lines[i++]);
    const p = document.createElement("p");
    paragraph.forEach((text, index) => {
      if (index > 0) p.append(document.createElement("br"));
      appendInline(p, text);
    });
    root.append(p);
  }
  return root;
}

function startsBlock(line) {
  return /^\s*(```|~~~)/.test(line) || /^#{1,6}\s/.test(line) || /^\s*>/.test(line) || listItem(line) !== null;
}

/// A list item that can start a list: indented at most three spaces.
function listItem(line) {
  const item = marker(line);
  return item && item.indent <= 3 ? item : null;
}

/// A list item at any depth: its indent, kind, number and text.
function marker(line) {
  const m = line.match(/^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/);
  if (!m) return null;
  const ordered = /\d/.test(m[2]);
  return { indent: m[1].length, ordered, start: ordered ? parseInt(m[2], 10) : 1, text: m[3] };
}

const indentOf = (line) => line.match(/^\s*/)[0].length;

/// A list from line `i`, with items nested under it by indentation, and task items (`- [x] done`). Returns
/// the element and the first line after it.
function list(lines, i, depth) {
  const first = marker(lines[i]);
  const element = document.createElement(first.ordered ? "ol" : "ul");
  if (first.ordered && first.start !== 1) element.start = first.start;
  while (i < lines.length) {
    const item = marker(lines[i]);
    if (!item || item.ordered !== first.ordered || item.indent > first.indent + 1 || item.indent < first.indent) break;
    i += 1;
    const inner = [];
    while (i < lines.length) {
      const line = lines[i];
      if (line.trim() === "") {
        // A blank line stays in the item only when what follows is indented under it.
        let j = i;
        while (j < lines.length && lines[j].trim() === "") j += 1;
        if (j < lines.length && indentOf(lines[j]) > item.indent + 1) { inner.push(""); i += 1; continue; }
        break;
      }
      if (indentOf(line) > item.indent + 1) { inner.push(line); i += 1; continue; }
      break;
    }
    const li = document.createElement("li");
    const task = item.text.match(/^\[([ xX])\]\s+(.*)$/);
    if (task) {
      li.className = "task";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.disabled = true;
      box.checked = task[1] !== " ";
      box.setAttribute("aria-label", task[1] !== " " ? "done" : "not done");
      li.append(box, " ");
      appendInline(li, task[2]);
    } else {
      appendInline(li, item.text);
    }
    if (inner.length) {
      const indent = Math.min(...inner.filter((l) => l.trim()).map(indentOf));
      const body = inner.map((l) => l.slice(Math.min(indent, indentOf(l)))).join("\n");
      if (depth + 1 < MAX_BLOCK_DEPTH && inner.some((l) => l.trim() && (marker(l) || /^\s*(```|~~~|>)/.test(l)))) {
        li.append(renderMarkdown(body, depth + 1));
      } else {
        li.append(" ");
        appendInline(li, body.replace(/\n+/g, " "));
      }
    }
    element.append(li);
    // Blank lines between items of the same list.
    let j = i;
    while (j < lines.length && lines[j].trim() === "") j += 1;
    const next = j < lines.length ? marker(lines[j]) : null;
    if (j > i && next && next.ordered === first.ordered && next.indent <= first.indent + 1 && next.indent >= first.indent) i = j;
  }
  return [element, i];
}

function codeBlock(text, language) {
  const wrapper = document.createElement("div");
  wrapper.className = "code-block";
  const bar = document.createElement("div");
  bar.className = "code-bar";
  const label = document.createElement("span");
  label.textContent = language || "code";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "copy-code";
  copy.textContent = "Copy";
  copy.addEventListener("click", () => {
    copyText(text).then((copied) => {
      copy.textContent = copied ? "Copied" : "Copy blocked";
      setTimeout(() => { copy.textContent = "Copy"; }, 1200);
    });
  });
  bar.append(label, copy);
  const pre = document.createElement("pre");
  const code = document.createElement("code");
  code.append(highlight(text, language));
  pre.append(code);
  wrapper.append(bar, pre);
  return wrapper;
}

function table(rows) {
  const cells = (row) => row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  const element = document.createElement("table");
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  cells(rows[0]).forEach((text) => { const th = document.createElement("th"); appendInline(th, text); headRow.append(th); });
  head.append(headRow);
  const body = document.createElement("tbody");
  rows.slice(2).forEach((row) => {
    const tr = document.createElement("tr");
    cells(row).forEach((text) => { const td = document.createElement("td"); appendInline(td, text); tr.append(td); });
    body.append(tr);
  });
  element.append(head, body);
  return element;
}

// Inline spans: `code`, **bold**, __bold__, *italic* / _italic_, ~~strike~~, [text](url), ![alt](url),
// <autolinks>. A hand-written scanner, not one regular expression: every delimiter is looked up in a sorted
// list of its places, so any input — model output, an imported note — renders in time linear in its length
// (times the nesting depth, which is capped).

/// Deeper emphasis than this is shown as text.
const MAX_INLINE_DEPTH = 8;
/// A longer line is shown as text: nobody writes formatting into 20,000 characters of one line.
const MAX_INLINE_LENGTH = 20000;

export function appendInline(parent, text, depth = 0) {
  if (depth >= MAX_INLINE_DEPTH || text.length > MAX_INLINE_LENGTH) {
    parent.append(document.createTextNode(text));
    return;
  }
  const scan = new InlineScan(text);
  let plain = 0;
  let i = 0;
  while (i < text.length) {
    const span = scan.spanAt(i);
    if (!span) { i += 1; continue; }
    if (i > plain) parent.append(document.createTextNode(text.slice(plain, i)));
    parent.append(inlineNode(span, depth));
    i = span.end;
    plain = i;
  }
  if (plain < text.length) parent.append(document.createTextNode(text.slice(plain)));
}

const isSpace = (c) => c !== undefined && /\s/.test(c);
const isWord = (c) => c !== undefined && /\w/.test(c);

/// The places of each delimiter in one line of text, found once, and the span (if any) that starts at a place.
class InlineScan {
  constructor(text) {
    this.text = text;
    this.places = new Map();
    // Backtick runs: [start, length], and for each length, how far the search for a closer has gone.
    this.runs = [];
    for (let i = 0; i < text.length; ) {
      if (text[i] !== "`") { i += 1; continue; }
      let j = i;
      while (text[j] === "`") j += 1;
      this.runs.push([i, j - i]);
      i = j;
    }
  }

  /// Sorted places where `test(i)` holds, computed on first use.
  placesOf(key, test) {
    let list = this.places.get(key);
    if (!list) {
      list = [];
      for (let i = 0; i < this.text.length; i += 1) if (test(i)) list.push(i);
      this.places.set(key, list);
    }
    return list;
  }

  /// The first place of `key` at or after `from`, or -1.
  next(key, test, from) {
    const list = this.placesOf(key, test);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (list[middle] < from) low = middle + 1; else high = middle;
    }
    return low < list.length ? list[low] : -1;
  }

  char(key) { return this.next.bind(this, key, (i) => this.text[i] === key); }

  spanAt(i) {
    const text = this.text;
    switch (text[i]) {
      case "`": return this.code(i);
      case "*": case "_": return this.emphasis(i);
      case "~": return this.pair(i, "~~", "del");
      case "!": return text[i + 1] === "[" ? this.link(i + 1, true) : null;
      case "[": return this.link(i, false);
      case "<": return this.autolink(i);
      default: return null;
    }
  }

  /// A code span: a run of backticks closed by the next run of the same length.
  code(i) {
    if (this.text[i - 1] === "`") return null; // inside a run already tried
    const index = this.runIndex(i);
    const [start, length] = this.runs[index];
    const closer = this.closingRun(index, length);
    if (closer < 0) return null;
    const [end] = this.runs[closer];
    let body = this.text.slice(start + length, end);
    if (body.length > 2 && body.startsWith(" ") && body.endsWith(" ") && body.trim()) body = body.slice(1, -1);
    return { kind: "code", text: body, end: end + length };
  }

  runIndex(i) {
    let low = 0;
    let high = this.runs.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.runs[middle][0] < i) low = middle + 1; else high = middle;
    }
    return low;
  }

  /// The next run after `index` as long as `length`; a search that fails is remembered, so unclosed runs
  /// cost one pass in all.
  closingRun(index, length) {
    this.noCloserAfter ??= new Map();
    if ((this.noCloserAfter.get(length) ?? Infinity) <= index) return -1;
    for (let k = index + 1; k < this.runs.length; k += 1) if (this.runs[k][1] === length) return k;
    this.noCloserAfter.set(length, index);
    return -1;
  }

  /// `**bold**`, `__bold__`, `*italic*`, `_italic_`.
  emphasis(i) {
    const text = this.text;
    const mark = text[i];
    if (text[i + 1] === mark) {
      const span = this.pair(i, mark + mark, "strong");
      if (span) return span;
    }
    // A single mark opens where a word does not go on before it and no space follows it.
    if (isWord(text[i - 1]) || text[i - 1] === mark || text[i + 1] === undefined || isSpace(text[i + 1])) return null;
    // …and closes at a lone mark after no space and before no word: `*a **b** c*` is one span.
    const closes = (j) =>
      text[j] === mark && !isSpace(text[j - 1]) && text[j - 1] !== mark && !isWord(text[j + 1]) && text[j + 1] !== mark;
    const end = this.next(`close${mark}`, closes, i + 2);
    return end < 0 ? null : { kind: "em", text: text.slice(i + 1, end), end: end + 1 };
  }

  /// A span between two equal marks of two characters, with something between them.
  pair(i, marks, kind) {
    if (this.text.slice(i, i + 2) !== marks) return null;
    const end = this.next(marks, (j) => this.text.startsWith(marks, j), i + 3);
    return end < 0 ? null : { kind, text: this.text.slice(i + 2, end), end: end + 2 };
  }

  /// `[text](url "title")`, or an image's `![alt](url)` shown as a link.
  link(bracket, image) {
    const text = this.text;
    const close = this.char("]")(bracket + 1);
    if (close < 0 || text[close + 1] !== "(" || (!image && close === bracket + 1)) return null;
    const end = this.char(")")(close + 2);
    if (end < 0) return null;
    const inside = text.slice(close + 2, end);
    const url = inside.match(/^\S*/)[0];
    const label = text.slice(bracket + 1, close);
    return { kind: image ? "image" : "link", text: label, href: url, end: end + 1 };
  }

  /// `<https://…>` with no space inside.
  autolink(i) {
    const text = this.text;
    if (!/^<https?:\/\//i.test(text.slice(i, i + 9))) return null;
    const close = this.char(">")(i + 1);
    if (close < 0) return null;
    const url = text.slice(i + 1, close);
    return /\s/.test(url) ? null : { kind: "link", text: url, href: url, end: close + 1 };
  }
}

function inlineNode(span, depth) {
  switch (span.kind) {
    case "code": { const code = document.createElement("code"); code.textContent = span.text; return code; }
    case "strong": case "em": case "del": return wrap(span.kind, span.text, depth);
    case "image": return link(`image: ${span.text || "untitled"}`, span.href);
    default: return link(span.text, span.href);
  }
}

function wrap(tag, text, depth) {
  const element = document.createElement(tag);
  appendInline(element, text, depth + 1);
  return element;
}

function link(text, href) {
  if (!SAFE_LINK.test(href)) return document.createTextNode(text);
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.target = "_blank";
  a.rel = "noopener noreferrer nofollow";
  return a;
}
