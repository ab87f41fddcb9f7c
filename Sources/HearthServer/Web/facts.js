// The facts Hearth keeps about the user, on the memory page: each with where it came from and its dates; added,
// edited, pinned and forgotten here. A fact said in a chat links back to that chat.
import { api, askFirst, attempt, el, getJSON, sendJSON, toast } from "/assets/api.js";

/// The facts section, filled in once the list arrives; `refresh` is called after every change.
export function factsSection(refresh) {
  const section = el("section", { class: "fact-section", id: "facts", "aria-labelledby": "facts-title" },
    el("h3", { id: "facts-title" }, "What Hearth remembers about you"));
  const list = el("ul", { class: "fact-list", id: "fact-list" });
  const text = el("input", { type: "text", id: "fact-text", maxlength: 300, placeholder: "I'm allergic to nuts", "aria-label": "A fact to remember" });
  const until = el("input", { type: "date", id: "fact-until", "aria-label": "Until (optional)" });
  const form = el("form", { class: "page-bar", id: "fact-form" }, text,
    el("label", { class: "muted", for: "fact-until" }, "until"), until,
    el("button", { class: "button", type: "submit" }, "Remember"));
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    if (!text.value.trim()) return;
    const body = { text: text.value };
    if (until.value) body.expires = until.value;
    const answer = await sendJSON("/api/memory/facts", "POST", body);
    toast(answer.replaced ? `Remembered, in place of “${answer.replaced.text}”` : "Remembered");
    await refresh();
  }));
  section.append(el("p", { class: "muted" },
    "Told in a chat (“remember that…”, “my sister is called…”) or added here. Pinned facts are in every answer's prompt; the others while they fit, then found by search."),
    list, form);
  fill(list, refresh);
  return section;
}

async function fill(list, refresh) {
  const { facts } = await getJSON("/api/memory/facts");
  if (!facts.length) return list.replaceChildren(el("li", { class: "muted" }, "Nothing yet."));
  list.replaceChildren(...facts.map((fact) => item(fact, refresh)));
}

function item(fact, refresh) {
  const day = (stamp) => new Date(stamp * 1000 || stamp).toLocaleDateString();
  const source = fact.session_id
    ? el("a", { href: `#/s/${fact.session_id}` }, "said in a chat")
    : "typed";
  const ends = fact.expires ? (fact.holds ? ` · until ${fact.expires}` : ` · ended ${fact.expires}`) : "";
  const words = el("span", { class: "fact-text" }, fact.text);
  const row = el("li", { class: `fact${fact.holds ? "" : " ended"}`, "data-id": fact.id },
    fact.is_pinned ? el("span", { class: "pin", title: "Pinned", "aria-label": "Pinned" }, "📌 ") : "",
    words, el("span", { class: "meta" }, " · ", source, ` · ${day(fact.created_at)}${ends} `));
  const change = (body) => attempt(async () => {
    await sendJSON(`/api/memory/facts/${fact.id}`, "PATCH", body);
    await refresh();
  });
  row.append(
    el("button", { class: "button small", type: "button", "aria-label": `${fact.is_pinned ? "Unpin" : "Pin"} ${fact.text}`, onclick: change({ is_pinned: !fact.is_pinned }) }, fact.is_pinned ? "Unpin" : "Pin"),
    el("button", { class: "button small", type: "button", "aria-label": `Edit ${fact.text}`, onclick: () => edit(row, words, fact, refresh) }, "Edit"),
    el("button", { class: "button small danger", type: "button", "aria-label": `Forget ${fact.text}`, onclick: attempt(async () => {
      if (!(await askFirst(`Forget “${fact.text}”?`, "Forget"))) return;
      await api(`/api/memory/facts/${fact.id}`, { method: "DELETE" });
      toast("Forgotten");
      await refresh();
    }) }, "Forget"));
  return row;
}

/// The fact's words as a field in place, saved on Enter or with the button, left as they were on Escape.
function edit(row, words, fact, refresh) {
  const input = el("input", { type: "text", class: "fact-edit", maxlength: 300, value: fact.text, "aria-label": "The fact's words" });
  const save = attempt(async (event) => {
    event?.preventDefault();
    if (input.value.trim() && input.value !== fact.text) {
      await sendJSON(`/api/memory/facts/${fact.id}`, "PATCH", { text: input.value });
    }
    await refresh();
  });
  const form = el("form", { class: "inline-edit", onsubmit: save }, input, el("button", { class: "button small", type: "submit" }, "Save"));
  input.addEventListener("keydown", (event) => { if (event.key === "Escape") refresh(); });
  words.replaceWith(form);
  input.focus();
}
