// Markdown to DOM for model output. Everything is built with createElement and textContent: no HTML
// from the model is ever parsed, links are limited to http(s) and mailto, and images are shown as
// links, never loaded.

import { copyText } from "/assets/api.js";
import { highlight } from "/assets/highlight.js";

const SAFE_LINK = /^(https?:|mailto:)/i;

export function renderMarkdown(source) {
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
      block.append(renderMarkdown(quoted.join("\n")));
      root.append(block);
      continue;
    }
    if (listItem(line)) {
      const [element, next] = list(lines, i);
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
function list(lines, i) {
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
      const depth = Math.min(...inner.filter((l) => l.trim()).map(indentOf));
      const body = inner.map((l) => l.slice(Math.min(depth, indentOf(l)))).join("\n");
      if (inner.some((l) => l.trim() && (marker(l) || /^\s*(```|~~~|>)/.test(l)))) {
        li.append(renderMarkdown(body));
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

// Inline spans: `code`, **bold**, *italic* / _italic_, ~~strike~~, [text](url), ![alt](url), <autolinks>.
const INLINE = /(`+)([^`]+?)\1|\*\*(.+?)\*\*|__(.+?)__|~~(.+?)~~|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])|!\[([^\]]*)\]\(([^)\s]*)[^)]*\)|\[([^\]]+)\]\(([^)\s]*)[^)]*\)|<(https?:\/\/[^>\s]+)>/;

export function appendInline(parent, text) {
  let rest = text;
  while (rest.length > 0) {
    const match = rest.match(INLINE);
    if (!match) { parent.append(document.createTextNode(rest)); return; }
    if (match.index > 0) parent.append(document.createTextNode(rest.slice(0, match.index)));
    parent.append(inlineNode(match));
    rest = rest.slice(match.index + match[0].length);
  }
}

function inlineNode(m) {
  if (m[2] !== undefined) { const code = document.createElement("code"); code.textContent = m[2]; return code; }
  if (m[3] !== undefined || m[4] !== undefined) return wrap("strong", m[3] ?? m[4]);
  if (m[5] !== undefined) return wrap("del", m[5]);
  if (m[6] !== undefined || m[7] !== undefined) return wrap("em", m[6] ?? m[7]);
  if (m[8] !== undefined) return link(`image: ${m[8] || "untitled"}`, m[9]);
  if (m[10] !== undefined) return link(m[10], m[11]);
  return link(m[12], m[12]);
}

function wrap(tag, text) {
  const element = document.createElement(tag);
  appendInline(element, text);
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
