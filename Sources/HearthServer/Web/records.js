// The notes page (list, search, a Markdown editor with preview) and the contacts page (search, a card
// per person, an editor).
import {
  $, api, askFirst, attempt, clearFieldProblems, clock, drawPage, el, getJSON, importSummary, pickFiles, sayFieldProblem, sendJSON, toast,
} from "/assets/api.js";
import { download } from "/assets/calendar.js";
import { focus } from "/assets/pages.js";
import { renderMarkdown } from "/assets/markdown.js";
import { snippetNode } from "/assets/search.js";

const noteState = { selected: null, query: "", timer: null, dirty: false, flush: null };
// Going to another page of the app saves the note being written at once, not a second later.
for (const name of ["hashchange", "hearth:view"]) window.addEventListener(name, () => { if (noteState.dirty) noteState.flush?.(); });
// Edits not yet saved (within the second before the autosave) keep the page from closing unasked.
window.addEventListener("beforeunload", (event) => { if (noteState.dirty) event.preventDefault(); });

export async function showNotes() {
  // Opened on one note (a citation's link): that note in the editor.
  if (focus.notes) {
    const id = focus.notes;
    delete focus.notes;
    // The address stays the page's: a reload opens the page, not the citation again.
    history.replaceState(null, "", "#/notes");
    if (noteState.dirty) await noteState.flush?.();
    try {
      noteState.selected = await getJSON(`/api/notes/${encodeURIComponent(id)}`);
    } catch {
      noteState.selected = null;
      toast("That note is no longer here.");
    }
  }
  const search = el("input", { type: "search", id: "note-search", placeholder: "Search notes", "aria-label": "Search notes", value: noteState.query });
  search.addEventListener("input", () => {
    noteState.query = search.value;
    clearTimeout(noteState.timer);
    noteState.timer = setTimeout(() => drawPage(refreshNotes), 200);
  });
  $("view-notes").replaceChildren(
    el("div", { class: "page-bar" }, el("strong", { class: "page-title" }, "Notes"), search,
      el("button", { class: "button primary", type: "button", id: "new-note", onclick: () => { noteState.selected = { title: "", body: "", tags: [], is_pinned: false }; drawPage(refreshNotes); } }, "New note"),
      el("button", { class: "button", type: "button", onclick: importNotes }, "Import")),
    el("div", { class: "split", id: "notes-body" }));
  await refreshNotes();
}

/// The list and the editor, below the page's bar (which keeps the search field as it is typed in).
async function refreshNotes() {
  const query = noteState.query.trim();
  // Only the latest search's answer is shown, whatever order the answers arrive in.
  const ticket = noteState.ticket = (noteState.ticket ?? 0) + 1;
  const notes = query
    ? (await getJSON(`/api/notes?q=${encodeURIComponent(query)}`)).hits.map((hit) => ({ ...hit.note, excerpt: hit.excerpt }))
    : (await getJSON("/api/notes")).notes;
  if (ticket !== noteState.ticket) return;
  const list = el("nav", { class: "note-list", "aria-label": "Notes" }, notes.map(noteItem));
  $("notes-body").replaceChildren(list,
    noteState.selected ? editor(noteState.selected) : el("p", { class: "muted" }, notes.length ? "Pick a note, or start a new one." : "No notes yet."));
}

/// A note's entry in the list; opening another saves the one being written first.
function noteItem(note) {
  return el("button", {
    type: "button", class: `note-item${noteState.selected?.id === note.id ? " active" : ""}`, "data-id": note.id,
    onclick: async () => {
      if (noteState.dirty) await noteState.flush?.();
      noteState.selected = note;
      drawPage(refreshNotes);
    },
  }, el("span", { class: "title" }, `${note.is_pinned ? "📌 " : ""}${note.title}`),
  note.excerpt ? el("span", { class: "meta" }, snippetNode(note.excerpt)) : el("span", { class: "meta" }, note.tags.map((tag) => `#${tag}`).join(" ")));
}

/// `markdown` with its `index`th task item (in reading order, code blocks skipped) ticked or not.
export function withTask(markdown, index, done) {
  const lines = markdown.split("\n");
  let fence = null;
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const opening = lines[i].match(/^\s*(```|~~~)/);
    if (opening) {
      if (!fence) fence = opening[1];
      else if (opening[1] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const task = lines[i].match(/^((?:\s*>)*\s*(?:[-*+]|\d+[.)])\s+\[)([ xX])(\]\s)/);
    if (!task) continue;
    if (seen === index) {
      lines[i] = task[1] + (done ? "x" : " ") + lines[i].slice(task[1].length + 1);
      return lines.join("\n");
    }
    seen += 1;
  }
  return markdown;
}

function editor(note) {
  const preview = el("div", { class: "bubble note-preview", id: "note-preview" });
  const body = el("textarea", { name: "body", rows: 16, "aria-label": "Body (Markdown)" });
  body.value = note.body;
  // The preview's task boxes can be ticked: the tick is written into the Markdown (`- [x]`) and saved with it.
  const refresh = () => {
    preview.replaceChildren(renderMarkdown(body.value));
    preview.querySelectorAll("li.task > input[type=checkbox]").forEach((box, index) => {
      box.disabled = false;
      const words = box.parentElement.textContent.trim();
      box.setAttribute("aria-label", `${words}: ${box.checked ? "done" : "not done"}`);
      box.addEventListener("change", () => {
        body.value = withTask(body.value, index, box.checked);
        body.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  };
  body.addEventListener("input", refresh);
  refresh();
  const suggestions = el("div", { class: "note-suggestions", id: "note-suggestions", hidden: true });
  const form = el("form", { class: "note-editor", id: "note-form" },
    el("input", { name: "title", value: note.title, placeholder: "Title", "aria-label": "Title", required: true }),
    el("input", { name: "tags", value: note.tags.join(", "), placeholder: "Tags, separated by commas", "aria-label": "Tags" }),
    el("label", { class: "inline" }, el("input", { name: "pinned", type: "checkbox", checked: note.is_pinned }), " Pinned"),
    el("div", { class: "editor-panes" }, body, preview),
    suggestions,
    el("div", { class: "row" },
      el("button", { class: "button primary", type: "submit" }, "Save"),
      el("button", { class: "button", type: "button", id: "note-suggest", onclick: attempt(() => suggest(form, suggestions)) },
        "Suggest title, tags, summary"),
      note.id ? el("button", { class: "button", type: "button", onclick: attempt(async () => download(await (await api(`/api/notes/${encodeURIComponent(note.id)}/export`)).blob(), `${note.title || "note"}.md`)) }, "Export") : null,
      note.id ? el("button", { class: "button danger", type: "button", onclick: attempt(async () => {
        if (!(await askFirst(`Delete “${note.title}”?`))) return;
        await api(`/api/notes/${encodeURIComponent(note.id)}`, { method: "DELETE" });
        noteState.selected = null;
        await refreshNotes();
      }) }, "Delete") : null));
  const status = el("span", { class: "muted", id: "note-status", role: "status" });
  form.querySelector(".row").append(status);
  const input = () => {
    const fields = form.elements;
    return {
      title: fields.title.value, body: fields.body.value, is_pinned: fields.pinned.checked,
      tags: fields.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean),
    };
  };
  // Written as it is typed: a pause of a second saves it, so leaving the page loses nothing. A note without a
  // title is named by its first line, as people start a note by writing in it.
  let saving = Promise.resolve();
  const save = () => {
    saving = saving.then(async () => {
      const wanted = input();
      if (!wanted.title.trim()) {
        wanted.title = firstLine(wanted.body);
        if (!wanted.title) {
          status.textContent = "Not saved yet: write a title or some text.";
          return;
        }
        if (document.activeElement !== form.elements.title) form.elements.title.value = wanted.title;
      }
      status.textContent = "Saving…";
      const saved = note.id
        ? await sendJSON(`/api/notes/${encodeURIComponent(note.id)}`, "PUT", wanted)
        : await sendJSON("/api/notes", "POST", wanted);
      note.id = saved.id;
      noteState.selected = saved;
      noteState.dirty = false;
      const item = document.querySelector(`.note-item[data-id="${CSS.escape(saved.id)}"] .title`);
      if (item) {
        item.textContent = `${saved.is_pinned ? "📌 " : ""}${saved.title}`;
      } else {
        // A new note joins the list as soon as it is saved, without the editor being drawn again.
        document.querySelector(".note-list")?.prepend(noteItem(saved));
      }
      status.textContent = "Saved";
    }).catch((error) => { status.textContent = `Not saved: ${error.message}`; });
    return saving;
  };
  let timer = null;
  noteState.flush = () => {
    clearTimeout(timer);
    return save();
  };
  form.addEventListener("input", () => {
    noteState.dirty = true;
    status.textContent = "Editing…";
    clearTimeout(timer);
    timer = setTimeout(save, 1000);
  });
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    clearTimeout(timer);
    await save();
    await refreshNotes();
    toast("Note saved");
  }));
  return form;
}

/// Asks for a title, tags and a summary for what the editor holds, and offers each to take; taking one fills
/// the editor, and nothing is saved until Save.
async function suggest(form, box) {
  const fields = form.elements;
  const tags = fields.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean);
  const found = await sendJSON("/api/notes/suggest", "POST", { title: fields.title.value, body: fields.body.value, tags });
  const offer = (label, value, take) => el("div", { class: "suggestion" }, el("span", { class: "muted" }, `${label}: `), value,
    " ", el("button", { class: "button", type: "button", onclick: (event) => { take(); event.target.disabled = true; event.target.textContent = "Taken"; } }, `Use ${label.toLowerCase()}`));
  const rows = [];
  if (found.title) rows.push(offer("Title", found.title, () => { fields.title.value = found.title; }));
  if (found.tags.length) rows.push(offer("Tags", found.tags.map((tag) => `#${tag}`).join(" "), () => {
    fields.tags.value = [...tags, ...found.tags.filter((tag) => !tags.includes(tag))].join(", ");
  }));
  if (found.summary) rows.push(offer("Summary", found.summary, () => {
    const line = `*Summary:* ${found.summary}`;
    if (!fields.body.value.startsWith(line)) fields.body.value = `${line}\n\n${fields.body.value}`;
    fields.body.dispatchEvent(new Event("input"));
  }));
  box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, "Nothing to suggest: the note says it already.")]),
    el("p", { class: "muted" }, "Taken suggestions are saved with Save."));
  box.hidden = false;
}

function importNotes() {
  pickFiles({
    accept: ".md,.markdown,text/markdown", multiple: true, path: "/api/notes/import", type: "text/markdown", withName: true,
    done: async (summaries) => {
      await refreshNotes();
      const added = summaries.reduce((sum, item) => sum + item.added + item.replaced, 0);
      const skipped = summaries.flatMap((item) => item.skipped);
      toast(`${added} notes imported${skipped.length ? `, ${skipped.length} skipped (${skipped[0].item}: ${skipped[0].reason})` : ""}`);
    },
  });
}

const contactState = { selected: null, query: "", timer: null, editing: false };

export async function showContacts() {
  const search = el("input", { type: "search", id: "contact-search", placeholder: "Search by name, organisation or phone", "aria-label": "Search contacts", value: contactState.query });
  search.addEventListener("input", () => {
    contactState.query = search.value;
    clearTimeout(contactState.timer);
    contactState.timer = setTimeout(() => drawPage(refreshContacts), 200);
  });
  $("view-contacts").replaceChildren(
    el("div", { class: "page-bar" }, el("strong", { class: "page-title" }, "Contacts"), search,
      el("button", { class: "button primary", type: "button", onclick: () => { contactState.selected = { full_name: "", phones: [], emails: [] }; contactState.editing = true; drawPage(refreshContacts); } }, "New contact"),
      el("button", { class: "button", type: "button", id: "import-contacts", onclick: importContacts }, "Import"),
      el("button", { class: "button", type: "button", onclick: attempt(async () => download(await (await api("/api/contacts/export")).blob(), "hearth-contacts.vcf")) }, "Export")),
    el("div", { class: "split", id: "contacts-body" }));
  await refreshContacts();
}

async function refreshContacts() {
  const query = contactState.query.trim();
  // Answers to searches typed quickly may come back out of order: only the latest one is shown.
  const ticket = contactState.ticket = (contactState.ticket ?? 0) + 1;
  const { contacts } = await getJSON(query ? `/api/contacts?q=${encodeURIComponent(query)}` : "/api/contacts");
  if (ticket !== contactState.ticket) return;
  const none = contacts.length ? null
    : el("p", { class: "muted" }, query ? `No contact matches “${query}”.` : "No contacts yet. Import a .vcf file or add one.");
  const list = el("nav", { class: "note-list", id: "contact-list", "aria-label": "Contacts" }, none, contacts.map((contact) =>
    el("button", {
      type: "button", class: `note-item${contactState.selected?.id === contact.id ? " active" : ""}`, "data-id": contact.id,
      onclick: () => { contactState.selected = contact; contactState.editing = false; drawPage(refreshContacts); },
    }, el("span", { class: "title" }, contact.full_name), el("span", { class: "meta" }, contact.organization ?? contact.emails[0]?.value ?? ""))));
  // The contact open stays open while the list is searched.
  const detail = contactState.selected
    ? (contactState.editing ? contactEditor(contactState.selected) : card(contactState.selected))
    : el("p", { class: "muted" }, contacts.length ? "Pick a contact." : "");
  $("contacts-body").replaceChildren(list, detail);
}

function card(contact) {
  const line = (label, value) => value ? el("div", { class: "card-line" }, el("dt", {}, label), el("dd", {}, value)) : null;
  return el("article", { class: "contact-card", id: "contact-card" },
    el("h3", {}, contact.full_name),
    contact.organization ? el("p", { class: "muted" }, contact.organization) : null,
    el("dl", {},
      contact.phones.map((phone) => line(phone.label ?? "phone", el("a", { href: `tel:${phone.value}` }, phone.value))),
      contact.emails.map((email) => line(email.label ?? "e-mail", el("a", { href: `mailto:${email.value}` }, email.value))),
      line("birthday", contact.birthday && clock.birthday(contact.birthday)), line("notes", contact.notes)),
    el("div", { class: "row" },
      el("button", { class: "button", type: "button", onclick: () => { contactState.editing = true; drawPage(refreshContacts); } }, "Edit"),
      el("button", { class: "button danger", type: "button", onclick: attempt(async () => {
        if (!(await askFirst(`Delete ${contact.full_name}?`))) return;
        await api(`/api/contacts/${encodeURIComponent(contact.id)}`, { method: "DELETE" });
        contactState.selected = null;
        await refreshContacts();
      }) }, "Delete")));
}

/// "cell: +33 6…" lines to labelled values and back.
const labeled = {
  parse: (text) => text.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const match = line.match(/^([A-Za-z,]+):\s*(.+)$/);
    return match && !/^(tel|mailto)$/i.test(match[1]) ? { label: match[1].toLowerCase(), value: match[2] } : { value: line };
  }),
  write: (values) => values.map((item) => (item.label ? `${item.label}: ${item.value}` : item.value)).join("\n"),
};

function contactEditor(contact) {
  const form = el("form", { class: "note-editor", id: "contact-form" },
    el("label", {}, "Full name", el("input", { name: "full_name", value: contact.full_name, required: true })),
    el("label", {}, "Organisation", el("input", { name: "organization", value: contact.organization ?? "" })),
    el("label", {}, "Phones (one per line, “cell: +33 …”)", el("textarea", { name: "phones", rows: 3 })),
    el("label", {}, "E-mails (one per line, “work: anna@…”)", el("textarea", { name: "emails", rows: 3 })),
    el("label", {}, "Birthday (1990-04-12, or --04-12)", el("input", { name: "birthday", value: contact.birthday ?? "" })),
    el("label", {}, "Notes", el("textarea", { name: "notes", rows: 3 })),
    el("div", { class: "row" }, el("button", { class: "button primary", type: "submit" }, "Save"),
      el("button", { class: "button", type: "button", onclick: () => { contactState.editing = false; if (!contact.id) contactState.selected = null; drawPage(refreshContacts); } }, "Cancel")));
  form.elements.phones.value = labeled.write(contact.phones);
  form.elements.emails.value = labeled.write(contact.emails);
  form.elements.notes.value = contact.notes ?? "";
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const fields = form.elements;
    const input = {
      full_name: fields.full_name.value, organization: fields.organization.value, notes: fields.notes.value,
      phones: labeled.parse(fields.phones.value), emails: labeled.parse(fields.emails.value),
      given_name: contact.given_name ?? undefined, family_name: contact.family_name ?? undefined,
    };
    if (fields.birthday.value.trim()) input.birthday = fields.birthday.value.trim();
    clearFieldProblems(form, problem);
    try {
      contactState.selected = contact.id
        ? await sendJSON(`/api/contacts/${encodeURIComponent(contact.id)}`, "PUT", input)
        : await sendJSON("/api/contacts", "POST", input);
    } catch (error) {
      // Said beside the field the server names ("emails[1].value" is the e-mails box); others go to the banner.
      const field = error.parameter && form.elements[error.parameter.split(/[.[]/)[0]];
      if (!field) throw error;
      sayFieldProblem(field, problem, error.message, field.closest("label"));
      return;
    }
    contactState.editing = false;
    await refreshContacts();
  }));
  const problem = el("p", { class: "field-error", id: "contact-problem", role: "alert", hidden: true });
  return form;
}

function importContacts() {
  pickFiles({
    accept: ".vcf,text/vcard", path: "/api/contacts/import", type: "text/vcard",
    done: async ([summary]) => { await refreshContacts(); toast(importSummary(summary)); },
  });
}

/// The first line of a note's text with its Markdown marks ("# ", "- [ ] ") left out, at most 60 characters.
function firstLine(body) {
  const line = body.split("\n").map((text) => text.replace(/^\s*(#+|[-*+]\s+\[[ xX]\]|[-*+>]|\d+[.)])\s*/, "").trim()).find(Boolean) ?? "";
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}
