// Syntax colouring for code blocks in answers: comments, strings, numbers, keywords and literals of the
// common languages, as spans built with textContent (never HTML). Unknown languages get the generic rules,
// which suit most C-like and script languages.

const C_LIKE = { line: "//", block: ["/*", "*/"] };
const LANGUAGES = {
  swift: { ...C_LIKE, keywords: "actor associatedtype async await break case catch class continue default defer do else enum extension fallthrough false fileprivate final for func guard if import in init inout internal is let nil nonisolated open operator private protocol public repeat rethrows return self Self some static struct subscript super switch throw throws true try typealias var where while any" },
  javascript: { ...C_LIKE, keywords: "async await break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while with yield" },
  typescript: { ...C_LIKE, keywords: "abstract any as async await boolean break case catch class const continue declare default do else enum export extends false finally for from function if implements import in interface keyof let new null number private protected public readonly return string super switch this throw true try type typeof undefined var void while" },
  python: { line: "#", keywords: "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return self True try while with yield" },
  bash: { line: "#", keywords: "case do done elif else esac export fi for function if in local return then until while echo exit set shift source" },
  c: { ...C_LIKE, keywords: "auto break case char const continue default do double else enum extern float for goto if inline int long NULL register return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false include define" },
  cpp: { ...C_LIKE, keywords: "auto bool break case catch char class const constexpr continue default delete do double else enum explicit false float for if inline int long namespace new nullptr operator private protected public return short signed sizeof static struct switch template this throw true try typedef typename using virtual void while include define std" },
  go: { ...C_LIKE, keywords: "break case chan const continue default defer else fallthrough false for func go goto if import interface map nil package range return select struct switch true type var" },
  rust: { ...C_LIKE, keywords: "as async await break const continue crate else enum false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while" },
  java: { ...C_LIKE, keywords: "abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long new null package private protected public return short static super switch this throw throws true false try void while var" },
  sql: { line: "--", block: ["/*", "*/"], caseless: true, keywords: "select from where and or not insert into values update set delete create table index drop alter join left right inner outer on group by order having limit offset as distinct null is in like between case when then else end primary key references union all" },
  json: { keywords: "true false null" },
  css: { block: ["/*", "*/"], keywords: "" },
  generic: { ...C_LIKE, line: "//", keywords: "if else for while return function def class import export const let var true false null nil None True False" },
};
const ALIASES = { js: "javascript", jsx: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript", py: "python", sh: "bash", shell: "bash", zsh: "bash", console: "bash", h: "c", hpp: "cpp", "c++": "cpp", cc: "cpp", golang: "go", rs: "rust", kt: "java", kotlin: "java" };

function rules(language) {
  const name = ALIASES[language?.toLowerCase()] ?? language?.toLowerCase();
  return LANGUAGES[name] ?? LANGUAGES.generic;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/// The code as a fragment of text nodes and coloured spans.
export function highlight(code, language) {
  const spec = rules(language);
  const parts = [];
  if (spec.block) parts.push(`${escape(spec.block[0])}[\\s\\S]*?(?:${escape(spec.block[1])}|$)`);
  if (spec.line) parts.push(`${escape(spec.line)}.*`);
  const comment = parts.length ? `(${parts.join("|")})` : "(?!)";
  const string = `("(?:[^"\\\\\\n]|\\\\.)*"?|'(?:[^'\\\\\\n]|\\\\.)*'?|\`(?:[^\`\\\\]|\\\\.)*\`?)`;
  const number = "(\\b(?:0x[\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)\\b)";
  const words = spec.keywords ? `(\\b(?:${spec.keywords.split(" ").map(escape).join("|")})\\b)` : "(?!)";
  const pattern = new RegExp(`${comment}|${string}|${number}|${words}`, spec.caseless ? "gi" : "g");
  const fragment = document.createDocumentFragment();
  let last = 0;
  for (const match of code.matchAll(pattern)) {
    if (match[0] === "") continue;
    if (match.index > last) fragment.append(document.createTextNode(code.slice(last, match.index)));
    const kind = match[1] !== undefined ? "comment" : match[2] !== undefined ? "string" : match[3] !== undefined ? "number" : "keyword";
    const span = document.createElement("span");
    span.className = `tok-${kind}`;
    span.textContent = match[0];
    fragment.append(span);
    last = match.index + match[0].length;
  }
  if (last < code.length) fragment.append(document.createTextNode(code.slice(last)));
  return fragment;
}
