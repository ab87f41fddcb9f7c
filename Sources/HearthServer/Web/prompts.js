// Pinned prompts: chips above the composer that put a saved prompt in the box, "Pin" under the user's own
// messages, and their list on the Settings page (rename, change, move, unpin).
import { $, api, attempt, el, getJSON, sendJSON, toast } from "/assets/api.js";

let prompts = [];

/// Puts `text` in the composer, after what is there, and hands it the focus.
function insert(text) {
  const box = $("prompt");
  box.value = box.value.trim() ? `${box.value.trimEnd()}\n${text}` : text;
  box.dispatchEvent(new Event("input"));
  box.focus();
}

function renderChips() {
  const row = $("pinned-prompts");
  row.replaceChildren(...prompts.map((prompt) => el("button", {
    class: "chip pinned-chip", type: "button", title: prompt.text, onclick: () => insert(prompt.text),
  }, prompt.name)));
  row.hidden = prompts.length === 0;
}

function renderSettings() {
  const list = $("prompts-list");
  if (!list) return;
  if (!prompts.length) {
    list.replaceChildren(el("p", { class: "muted" }, "No pinned prompts yet."));
    return;
  }
  list.replaceChildren(...prompts.map((prompt, index) => {
    const name = el("input", { name: "name", value: prompt.name, "aria-label": `Name of ${prompt.name}`, maxlength: "40" });
    const text = el("textarea", { name: "text", rows: "2", "aria-label": `Text of ${prompt.name}` });
    text.value = prompt.text;
    const id = encodeURIComponent(prompt.id);
    const move = (position) => attempt(async () => {
      ({ prompts } = await sendJSON(`/api/prompts/${id}/move`, "POST", { position }));
      changed();
    });
    return el("div", { class: "pinned-row", "data-prompt": prompt.name }, name, text,
      el("div", { class: "row wrap" },
        el("button", { class: "button", type: "button", onclick: attempt(async () => {
          await sendJSON(`/api/prompts/${id}`, "PUT", { name: name.value, text: text.value });
          $("prompts-status").textContent = `Saved “${name.value.trim()}”.`;
          await load();
        }) }, "Save"),
        el("button", { class: "button", type: "button", disabled: index === 0, "aria-label": `Move ${prompt.name} up`,
          onclick: move(index) }, "↑"),
        el("button", { class: "button", type: "button", disabled: index === prompts.length - 1,
          "aria-label": `Move ${prompt.name} down`, onclick: move(index + 2) }, "↓"),
        el("button", { class: "button", type: "button", onclick: attempt(async () => {
          await api(`/api/prompts/${id}`, { method: "DELETE" });
          $("prompts-status").textContent = `Unpinned “${prompt.name}”.`;
          await load();
        }) }, `Unpin ${prompt.name}`)));
  }));
}

function changed() {
  renderChips();
  renderSettings();
}

/// Reads the pinned prompts again and shows them.
export async function load() {
  ({ prompts } = await getJSON("/api/prompts"));
  changed();
}

/// Pins `text` under a name the user gives (the start of the text by default).
export async function pin(text) {
  const suggested = text.split(/\s+/).slice(0, 4).join(" ").slice(0, 40);
  const name = window.prompt("Pin this prompt as:", suggested);
  if (name === null) return;
  const saved = await sendJSON("/api/prompts", "POST", { name, text });
  toast(`Pinned “${saved.name}”: it is above the message box.`);
  await load();
}

/// Shows the chips and wires the Settings page's form.
export async function wirePrompts() {
  const form = $("prompts-form");
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const saved = await sendJSON("/api/prompts", "POST", { name: form.name.value, text: form.text.value });
    $("prompts-status").textContent = `Pinned “${saved.name}”.`;
    form.reset();
    await load();
  }));
  await load();
}
