// Personas on the memory page: named assistants, each with its own instructions, backstory, model and style;
// added, changed and removed here, and a chat started with one from its row or the picker over a new chat.
import { api, askFirst, attempt, el, getJSON, sendJSON, toast } from "/assets/api.js";

const presets = [["", "the chat settings'"], ["precise", "Precise"], ["balanced", "Balanced"], ["creative", "Creative"]];

/// The personas section; `refresh` redraws the page after a change, `startChat` opens a new chat with one.
export function personasSection(refresh, startChat) {
  const section = el("section", { class: "personas", id: "personas", "aria-labelledby": "personas-title" },
    el("h3", { id: "personas-title" }, "Personas"),
    el("p", { class: "muted" },
      "Assistants of your own: who each is, what it knows of its life, and the model and style it answers with. A chat started with one keeps it."));
  const list = el("ul", { class: "persona-list", id: "persona-list" });
  const adding = el("details", { id: "persona-add" }, el("summary", {}, "Add a persona"));
  section.append(list, adding);
  Promise.all([getJSON("/api/personas"), getJSON("/api/models").catch(() => ({ models: [], choosable: [] }))])
    .then(([{ personas }, overview]) => {
      // Only the chat models a turn can be answered with (not the embedding or speech models).
      const models = overview.models.filter((model) => overview.choosable?.includes(model.id));
      adding.append(form(null, models, refresh));
      if (!personas.length) return list.replaceChildren(el("li", { class: "muted" }, "None yet."));
      list.replaceChildren(...personas.map((persona) => item(persona, models, refresh, startChat)));
    })
    .catch((error) => list.replaceChildren(el("li", { class: "muted" }, `The personas could not be read: ${error.message}`)));
  return section;
}

function item(persona, models, refresh, startChat) {
  const traits = [persona.model?.replace(/\.gguf$/i, ""), persona.preset].filter(Boolean);
  const words = persona.backstory ? persona.backstory.split(/\s+/).length : 0;
  const row = el("li", { class: "persona-row", "data-id": persona.id },
    el("strong", { class: "persona-name" }, persona.name),
    el("span", { class: "meta" }, traits.length ? ` · ${traits.join(" · ")}` : "", words ? ` · backstory of ${words} words` : ""),
    el("button", { class: "button small", type: "button", "aria-label": `Chat with ${persona.name}`, onclick: () => startChat(persona) }, "Chat"),
    el("button", { class: "button small", type: "button", "aria-label": `Edit ${persona.name}`, onclick: () => {
      const open = row.querySelector("form");
      if (open) return open.remove();
      row.append(form(persona, models, refresh));
      row.querySelector("input[name=name]").focus();
    } }, "Edit"),
    el("button", { class: "button small danger", type: "button", "aria-label": `Remove ${persona.name}`, onclick: attempt(async () => {
      if (!(await askFirst(`Remove ${persona.name}? Its chats stay and are answered as Hearth.`, "Remove"))) return;
      await api(`/api/personas/${persona.id}`, { method: "DELETE" });
      toast(`${persona.name} removed`);
      await refresh();
    }) }, "Remove"));
  return row;
}

/// The fields of a persona: empty to add one, filled to change `persona`.
function form(persona, models, refresh) {
  const id = persona ? persona.id.slice(0, 8) : "new";
  const name = el("input", { name: "name", id: `persona-name-${id}`, required: true, maxlength: 60, value: persona?.name ?? "", placeholder: "Captain" });
  const prompt = el("textarea", { name: "system_prompt", id: `persona-prompt-${id}`, rows: 3, maxlength: 4000, placeholder: "You are Captain Wren, a retired sea captain. You speak plainly and like a good story." });
  prompt.value = persona?.system_prompt ?? "";
  const backstory = el("textarea", { name: "backstory", id: `persona-backstory-${id}`, rows: 5, maxlength: 40000, placeholder: "Where it grew up, what it did, what it likes… as long as you like: the parts that fit each question come with it." });
  backstory.value = persona?.backstory ?? "";
  const model = el("select", { name: "model", id: `persona-model-${id}` },
    el("option", { value: "" }, "The chosen model"),
    ...models.map((m) => el("option", { value: m.id, selected: persona?.model === m.id }, m.id.replace(/\.gguf$/i, ""))));
  if (persona?.model && !models.some((m) => m.id === persona.model)) {
    model.append(el("option", { value: persona.model, selected: true }, persona.model));
  }
  const preset = el("select", { name: "preset", id: `persona-preset-${id}` },
    ...presets.map(([value, label]) => el("option", { value, selected: (persona?.preset ?? "") === value }, label)));
  const label = (field, text) => el("label", { for: field.id }, text, field);
  const save = attempt(async (event) => {
    event.preventDefault();
    const body = {
      name: name.value, system_prompt: prompt.value.trim() || null, backstory: backstory.value,
      model: model.value || null, preset: preset.value || null,
    };
    if (persona) await sendJSON(`/api/personas/${persona.id}`, "PATCH", body);
    else await sendJSON("/api/personas", "POST", body);
    toast(persona ? `${name.value} changed` : `${name.value} added`);
    await refresh();
  });
  return el("form", { class: "persona-form settings", onsubmit: save },
    label(name, "Name"), label(prompt, "Who it is (in place of Hearth's own opening)"),
    label(backstory, "Its backstory"), label(model, "Model"), label(preset, "Style"),
    el("div", { class: "row" }, el("button", { class: "button primary", type: "submit" }, persona ? "Save" : "Add")));
}

/// The picker over a new chat: Hearth or one of the personas.
export async function fillPersonaPicker(picker, chosen) {
  const { personas } = await getJSON("/api/personas");
  picker.replaceChildren(el("option", { value: "" }, "Hearth"),
    ...personas.map((persona) => el("option", { value: persona.id, selected: persona.id === chosen }, persona.name)));
  picker.hidden = personas.length === 0;
}
