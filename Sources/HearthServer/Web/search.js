// Search results as people expect them: the matched words visible in each result, arrow keys and Enter to
// move through and open them, and a hit in a message opened at that message, scrolled to and highlighted.

/// A result's snippet (matches marked with [ ]) as text and highlights, cut so the first match is in view.
export function snippetNode(snippet) {
  const span = document.createElement("span");
  span.className = "snippet";
  let text = snippet;
  const first = text.indexOf("[");
  // The list shows about two lines: what comes before the first match is cut to a few words.
  if (first > 40) text = `…${text.slice(first - 30).replace(/^\S*\s/, "")}`;
  text.split(/(\[[^\]]*\])/).forEach((part) => {
    if (part.startsWith("[") && part.endsWith("]")) {
      const mark = document.createElement("mark");
      mark.textContent = part.slice(1, -1);
      span.append(mark);
    } else {
      span.append(document.createTextNode(part));
    }
  });
  return span;
}

/// Arrow keys from the search box into the results and between them; Esc back to the box.
export function wireResultKeys(searchBox, list) {
  const items = () => [...list.querySelectorAll(".session-item")];
  searchBox.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || (event.key === "Enter" && searchBox.value.trim())) {
      const first = items()[0];
      if (!first) return;
      event.preventDefault();
      if (event.key === "Enter") first.click(); else first.focus();
    }
  });
  list.addEventListener("keydown", (event) => {
    const all = items();
    const index = all.indexOf(document.activeElement);
    if (index < 0) return;
    if (event.key === "ArrowDown" && index < all.length - 1) { event.preventDefault(); all[index + 1].focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); (index > 0 ? all[index - 1] : searchBox).focus(); }
    else if (event.key === "Escape" && searchBox.value) { event.preventDefault(); searchBox.focus(); }
  });
}

/// Scrolls to the message a hit was found in and marks the query's words inside it.
export function showHit(list, messageID, query) {
  const element = list.querySelector(`[data-id="${messageID}"]`);
  if (!element) return false;
  const words = query.split(/\s+/).map((word) => word.replace(/[^\p{L}\p{N}]/gu, "")).filter((word) => word.length > 1);
  if (words.length) {
    const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "giu");
    const walker = document.createTreeWalker(element.querySelector(".bubble"), NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const parts = node.textContent.split(pattern);
      if (parts.length < 2) continue;
      const fragment = document.createDocumentFragment();
      parts.forEach((part, index) => {
        if (index % 2 === 1) {
          const mark = document.createElement("mark");
          mark.className = "search-hit";
          mark.textContent = part;
          fragment.append(mark);
        } else if (part) {
          fragment.append(document.createTextNode(part));
        }
      });
      node.replaceWith(fragment);
    }
  }
  element.classList.add("found");
  (element.querySelector("mark.search-hit") ?? element).scrollIntoView({ block: "center" });
  setTimeout(() => element.classList.remove("found"), 2500);
  return true;
}
