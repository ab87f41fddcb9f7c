// Chat templates: instructions a chat is answered by and a first message for the box, kept on the Settings page
// and chosen over a new chat.
import { $, api, askFirst, attempt, el, getJSON, sendJSON } from "/assets/api.js";

let templates = [];

/// The template with `id`, as last read.
export function templateNamed(id) {
  return templates.find((template) => template.id === id) ?? null;
}

/// Fills the new chat's template picker; hidden while there is none.
export async function fillTemplatePicker(picker, chosen = "") {
  ({ templates } = await getJSON("/api/templates"));
  picker.replaceChildren(el("option", { value: "" }, "No template"),
    ...templates.map((template) => el("option", { value: template.id, selected: template.id === chosen }, template.name)));
  picker.hidden = templates.length === 0;
}

function fields(template) {
  const name = el("input", { name: "name", required: "", maxlength: "60", value: template?.name ?? "", "aria-label": template ? `Name of ${template.name}` : "Name" });
  const instructions = el("textarea", { name: "instructions", rows: "3", maxlength: "4000", "aria-label": template ? `Instructions of ${template.name}` : "Instructions",
    placeholder: "You help me plan meals for the week. Ask what is in the fridge first." });
  instructions.value = template?.instructions ?? "";
  const first = el("textarea", { name: "first_message", rows: "2", maxlength: "4000", "aria-label": template ? `First message of ${template.name}` : "First message",
    placeholder: "Plan my dinners for this week." });
  first.value = template?.first_message ?? "";
  return { name, instructions, first };
}

function row(template, refresh) {
  const { name, instructions, first } = fields(template);
  const id = encodeURIComponent(template.id);
  return el("div", { class: "pinned-row template-row", "data-template": template.name },
    el("label", {}, "Name", name), el("label", {}, "Instructions", instructions), el("label", {}, "First message", first),
    el("div", { class: "row wrap" },
      el("button", { class: "button", type: "button", onclick: attempt(async () => {
        await sendJSON(`/api/templates/${id}`, "PATCH",
          { name: name.value, instructions: instructions.value, first_message: first.value });
        $("templates-status").textContent = `Saved “${name.value.trim()}”.`;
        await refresh();
      }) }, "Save"),
      el("button", { class: "button", type: "button", onclick: attempt(async () => {
        if (!(await askFirst(`Delete the template “${template.name}”? Chats started from it keep their instructions.`))) return;
        await api(`/api/templates/${id}`, { method: "DELETE" });
        $("templates-status").textContent = `Deleted “${template.name}”.`;
        await refresh();
      }) }, `Delete ${template.name}`)));
}

/// Reads the templates again and lists them on the Settings page.
export async function loadTemplates() {
  ({ templates } = await getJSON("/api/templates"));
  const list = $("templates-list");
  list.replaceChildren(...(templates.length
    ? templates.map((template) => row(template, loadTemplates))
    : [el("p", { class: "muted" }, "No templates yet.")]));
}

/// The Settings page's form for a new template.
export function wireTemplates() {
  const form = $("templates-form");
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const saved = await sendJSON("/api/templates", "POST", {
      name: form.elements.name.value, instructions: form.elements.instructions.value,
      first_message: form.elements.first_message.value,
    });
    $("templates-status").textContent = `Added “${saved.name}”: choose it over a new chat.`;
    form.reset();
    await loadTemplates();
  }));
}
