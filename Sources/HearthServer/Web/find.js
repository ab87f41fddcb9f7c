// Find in the open chat (Ctrl+F): every match in the messages marked, the current one scrolled to, Enter and
// Shift+Enter (or the arrows) to move through them, Esc to close. Matches are wrapped as text nodes are, so
// the answers' own markup is never re-parsed.
import { $, el } from "/assets/api.js";

let hits = [];
let current = -1;

function clear() {
  for (const mark of $("messages").querySelectorAll("mark.find-hit")) {
    const parent = mark.parentNode;
    parent.replaceChild(document.createTextNode(mark.textContent), mark);
    parent.normalize();
  }
  hits = [];
  current = -1;
}

function mark(query) {
  clear();
  if (!query) return;
  const needle = query.toLocaleLowerCase();
  for (const bubble of $("messages").querySelectorAll(".message .bubble")) {
    const walker = document.createTreeWalker(bubble, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      let text = node.textContent;
      let at = text.toLocaleLowerCase().indexOf(needle);
      let rest = node;
      while (at !== -1) {
        const match = rest.splitText(at);
        rest = match.splitText(query.length);
        const wrapper = el("mark", { class: "find-hit" }, match.textContent);
        match.replaceWith(wrapper);
        hits.push(wrapper);
        text = rest.textContent;
        at = text.toLocaleLowerCase().indexOf(needle);
      }
    }
  }
}

function show(index) {
  if (!hits.length) {
    $("find-count").textContent = $("find-input").value ? "No matches" : "";
    return;
  }
  hits[current]?.classList.remove("current");
  current = (index + hits.length) % hits.length;
  hits[current].classList.add("current");
  hits[current].scrollIntoView({ block: "center" });
  $("find-count").textContent = `${current + 1} / ${hits.length}`;
}

export function openFind() {
  $("find-bar").hidden = false;
  $("find-input").focus();
  $("find-input").select();
  if ($("find-input").value) {
    mark($("find-input").value);
    show(0);
  }
}

export function closeFind() {
  if ($("find-bar").hidden) return false;
  clear();
  $("find-bar").hidden = true;
  $("find-count").textContent = "";
  return true;
}

export function wireFind() {
  $("find-input").addEventListener("input", () => {
    mark($("find-input").value);
    show(0);
  });
  $("find-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      show(current + (event.shiftKey || event.key === "ArrowUp" ? -1 : 1));
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      closeFind();
      $("prompt").focus();
    }
  });
  $("find-next").addEventListener("click", () => show(current + 1));
  $("find-previous").addEventListener("click", () => show(current - 1));
  $("find-close").addEventListener("click", () => closeFind());
}
