// The reminders page: what is overdue, due today and later; repeating reminders come back when done.
import {
  $, api, askFirst, attempt, clearFieldProblems, clock, drawPage, el, getJSON, importSummary, pickFiles, sayFieldProblem, sendJSON, toast,
} from "/assets/api.js";
import { download } from "/assets/calendar.js";

const reminderState = { list: "" };

/// The repeats a person picks from; a rule none of them matches (from an import, or the command line) is kept
/// as it is and shown in words.
const REPEATS = [
  ["", "Doesn’t repeat", null],
  ["daily", "Every day", { frequency: "DAILY" }],
  ["weekdays", "Every weekday", { frequency: "WEEKLY", by_weekday: ["MO", "TU", "WE", "TH", "FR"] }],
  ["weekly", "Every week", { frequency: "WEEKLY" }],
  ["fortnightly", "Every 2 weeks", { frequency: "WEEKLY", interval: 2 }],
  ["monthly", "Every month", { frequency: "MONTHLY" }],
  ["yearly", "Every year", { frequency: "YEARLY" }],
];

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function sameRule(left, right) {
  const normal = (rule) => JSON.stringify([rule.frequency, rule.interval ?? 1, rule.count ?? null, rule.until ?? null,
    rule.by_weekday ?? [], rule.by_month_day ?? []]);
  return normal(left) === normal(right);
}

/// The preset a rule is, or "custom".
function repeatKey(rule) {
  if (!rule) return "";
  return REPEATS.find(([, , preset]) => preset && sameRule(preset, rule))?.[0] ?? "custom";
}

/// A rule in words: "Every week", "Every 3 months", "Every week on MO, TH".
export function repeatWords(rule) {
  const key = repeatKey(rule);
  if (key !== "custom") return REPEATS.find(([value]) => value === key)[1];
  const unit = { DAILY: "day", WEEKLY: "week", MONTHLY: "month", YEARLY: "year" }[rule.frequency];
  let words = (rule.interval ?? 1) === 1 ? `Every ${unit}` : `Every ${rule.interval} ${unit}s`;
  if (rule.by_weekday?.length) words += ` on ${rule.by_weekday.join(", ")}`;
  if (rule.by_month_day?.length) words += ` on day ${rule.by_month_day.join(", ")}`;
  if (rule.count) words += `, ${rule.count} more`;
  if (rule.until) words += `, until ${rule.until.slice(0, 10)}`;
  return words;
}

function repeatSelect(rule) {
  const key = repeatKey(rule);
  const select = el("select", { name: "repeat", "aria-label": "Repeats" },
    REPEATS.map(([value, label]) => el("option", { value, selected: value === key }, label)),
    key === "custom" ? el("option", { value: "custom", selected: true }, repeatWords(rule)) : null);
  select.rule = rule;
  return select;
}

/// What the form's day, time and repeat fields ask for, or the field that is wrong and why.
function readWhen(fields) {
  const time = fields.time.value.trim();
  if (time && !TIME.test(time)) return { problem: ["time", "Write the time as hours and minutes, such as 14:30."] };
  if (time && !fields.due.value) return { problem: ["due", "A time needs a day: choose the date too, or clear the time."] };
  const repeat = fields.repeat.value;
  if (repeat && !fields.due.value) return { problem: ["due", "A repeating reminder needs a day to start from."] };
  const hhmm = time ? time.padStart(5, "0") : "";
  const due = fields.due.value ? (hhmm ? `${fields.due.value}T${hhmm}` : fields.due.value) : undefined;
  const recurrence = repeat === "custom" ? fields.repeat.rule : REPEATS.find(([value]) => value === repeat)?.[2] ?? undefined;
  return { due, recurrence: recurrence ?? undefined };
}

function dueText(reminder) {
  if (!reminder.due) return "";
  return clock.readable(reminder.due.is_date_only ? reminder.due.time.slice(0, 10) : reminder.due.time.slice(0, 16));
}

/// Past its day (a date) or its minute (a time) on the user's clock.
function isOverdue(reminder) {
  if (!reminder.due || reminder.completed_at) return false;
  return reminder.due.is_date_only ? reminder.due.time.slice(0, 10) < clock.format(clock.today(), false)
    : reminder.due.time.slice(0, 16) < clock.format(clock.now());
}

/// Every field of a reminder as the API takes it: what Undo sends to put it back as it was.
function fieldsOf(reminder) {
  const due = reminder.due ? (reminder.due.is_date_only ? reminder.due.time.slice(0, 10) : reminder.due.time.slice(0, 16)) : undefined;
  const zone = reminder.due && !reminder.due.is_date_only && reminder.due.zone !== "floating" ? reminder.due.zone : undefined;
  return { title: reminder.title, notes: reminder.notes ?? undefined, due, zone, priority: reminder.priority ?? "none",
    list: reminder.list, completed: Boolean(reminder.completed_at), recurrence: reminder.recurrence ?? undefined };
}

export async function showReminders() {
  const view = $("view-reminders");
  const { reminders } = await getJSON("/api/reminders");
  const lists = [...new Set(["Reminders", ...reminders.map((item) => item.list)])].sort();
  const today = clock.format(clock.today(), false);
  const open = reminders.filter((item) => !item.completed_at && (!reminderState.list || item.list === reminderState.list));
  const overdue = open.filter(isOverdue);
  const dueToday = open.filter((item) => !overdue.includes(item) && item.due && item.due.time.slice(0, 10) === today);
  const later = open.filter((item) => !dueToday.includes(item) && !overdue.includes(item));
  const done = reminders.filter((item) => item.completed_at && (!reminderState.list || item.list === reminderState.list));
  const listFilter = el("select", { id: "reminder-list-filter", "aria-label": "List" },
    el("option", { value: "" }, "All lists"), lists.map((name) => el("option", { value: name, selected: name === reminderState.list }, name)));
  listFilter.addEventListener("change", () => { reminderState.list = listFilter.value; drawPage(showReminders); });
  const problem = el("p", { class: "field-error", role: "alert", hidden: true });
  const form = el("form", { id: "reminder-form", class: "inline-form" },
    el("input", { name: "title", placeholder: "New reminder", "aria-label": "New reminder", required: true }),
    el("input", { name: "due", type: "date", "aria-label": "Due date" }),
    timeInput(""),
    repeatSelect(null),
    el("select", { name: "priority", "aria-label": "Priority" },
      ["none", "low", "medium", "high"].map((value) => el("option", { value }, value === "none" ? "No priority" : value))),
    // Said to be a list, not a second title: its own label before it.
    el("label", { class: "list-field" }, "in list ",
      el("input", { name: "list", list: "reminder-lists", placeholder: "List", "aria-label": "List", value: reminderState.list || "Reminders", size: 10 })),
    el("datalist", { id: "reminder-lists" }, lists.map((name) => el("option", { value: name }))),
    el("button", { class: "button primary", type: "submit" }, "Add"),
    problem);
  onSubmit(form, problem, (fields, when) => sendJSON("/api/reminders", "POST", {
    title: fields.title.value, due: when.due, recurrence: when.recurrence, priority: fields.priority.value, list: fields.list.value,
  }), async () => {
    await showReminders();
    $("reminder-form").elements.title.focus();
  });
  // Sections that are not there are left out (replaceChildren would write "null" for them).
  view.replaceChildren(...[
    el("div", { class: "page-bar" }, el("strong", { class: "page-title" }, "Reminders"), listFilter,
      el("button", { class: "button", type: "button", onclick: importReminders }, "Import"),
      el("button", { class: "button", type: "button", onclick: attempt(async () => download(await (await api("/api/reminders/export")).blob(), "hearth-reminders.ics")) }, "Export")),
    form,
    overdue.length ? section("Overdue", overdue, "") : null,
    section("Due today", dueToday, "Nothing due today."),
    section("Later", later, "Nothing else to do."),
    done.length ? el("details", { class: "done-list" }, el("summary", {}, `Completed (${done.length})`), done.map(reminderRow)) : null,
  ].filter(Boolean));
}

function timeInput(value) {
  return el("input", { name: "time", value, inputmode: "numeric", maxlength: 5, placeholder: "HH:MM", autocomplete: "off",
    class: "time-input", "aria-label": "Due time (24-hour, HH:MM)" });
}

function section(title, reminders, empty) {
  return el("section", { class: "list-section" }, el("h3", {}, title),
    reminders.length ? el("ul", { class: "item-list" }, reminders.map(reminderRow)) : el("p", { class: "muted" }, empty));
}

function reminderRow(reminder) {
  const path = `/api/reminders/${encodeURIComponent(reminder.id)}`;
  const box = el("input", { type: "checkbox", checked: Boolean(reminder.completed_at), "aria-label": `Done: ${reminder.title}` });
  box.addEventListener("change", attempt(async () => {
    const after = await sendJSON(`${path}/complete`, "POST", { done: box.checked });
    await showReminders();
    // A repeating reminder stays open, due at its next time: say so, and let the step be taken back.
    if (box.checked && !after.completed_at && reminder.recurrence) {
      toast(`Done. “${reminder.title}” is due again ${dueText(after)}.`, { undo: async () => {
        await sendJSON(path, "PUT", fieldsOf(reminder));
        await showReminders();
      } });
    }
  }));
  const due = dueText(reminder);
  return el("li", { class: `item-row${reminder.completed_at ? " completed" : ""}`, "data-id": reminder.id },
    el("label", { class: "check" }, box, el("span", {}, reminder.title)),
    due ? el("span", { class: `tag${isOverdue(reminder) ? " overdue" : ""}` }, due) : null,
    reminder.recurrence ? el("span", { class: "tag repeats", title: "Repeats" }, `↻ ${repeatWords(reminder.recurrence)}`) : null,
    reminder.priority && reminder.priority !== "none" ? el("span", { class: `tag priority-${reminder.priority}` }, reminder.priority) : null,
    el("span", { class: "tag" }, reminder.list),
    el("button", { class: "icon-button edit-reminder", type: "button", title: `Edit “${reminder.title}”`,
      onclick: (event) => editReminder(event.currentTarget.closest("li"), reminder) }, "Edit"),
    el("button", { class: "icon-button danger", type: "button", title: "Delete", onclick: attempt(async () => {
      if (!(await askFirst(`Delete “${reminder.title}”?`))) return;
      await api(path, { method: "DELETE" });
      await showReminders();
      toast(`Deleted “${reminder.title}”.`, { undo: async () => {
        await sendJSON("/api/reminders", "POST", fieldsOf(reminder));
        await showReminders();
        toast(`“${reminder.title}” is back.`);
      } });
    }) }, "Delete"));
}

/// The row becomes a form for the reminder's every field; Save (or Enter) keeps the changes, Cancel (or Esc) puts
/// the row back. What is wrong, found here or by the server, is said beside the field it concerns.
function editReminder(row, reminder) {
  const date = reminder.due ? reminder.due.time.slice(0, 10) : "";
  const time = reminder.due && !reminder.due.is_date_only ? reminder.due.time.slice(11, 16) : "";
  const problem = el("p", { class: "field-error", role: "alert", hidden: true });
  const form = el("form", { class: "inline-form reminder-edit", "aria-label": `Edit “${reminder.title}”` },
    el("input", { name: "title", value: reminder.title, "aria-label": "Title", required: true }),
    el("input", { name: "due", type: "date", value: date, "aria-label": "Due date" }),
    timeInput(time),
    repeatSelect(reminder.recurrence),
    el("select", { name: "priority", "aria-label": "Priority" },
      ["none", "low", "medium", "high"].map((value) => el("option", { value, selected: value === (reminder.priority ?? "none") },
        value === "none" ? "No priority" : value))),
    el("input", { name: "list", list: "reminder-lists", value: reminder.list, "aria-label": "List" }),
    el("textarea", { name: "notes", rows: 2, placeholder: "Notes", "aria-label": "Notes" }, reminder.notes ?? ""),
    el("button", { class: "button primary", type: "submit" }, "Save"),
    el("button", { class: "button", type: "button", onclick: () => drawPage(showReminders) }, "Cancel"),
    problem);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); drawPage(showReminders); }
  });
  onSubmit(form, problem, (fields, when) => sendJSON(`/api/reminders/${encodeURIComponent(reminder.id)}`, "PUT", {
    title: fields.title.value, due: when.due, recurrence: when.recurrence, priority: fields.priority.value,
    zone: fieldsOf(reminder).zone && when.due?.includes("T") ? reminder.due.zone : undefined,
    list: fields.list.value, notes: fields.notes.value, completed: Boolean(reminder.completed_at),
  }), async (saved) => {
    await showReminders();
    toast(`Saved “${saved.title}”.`);
  });
  row.replaceChildren(form);
  row.classList.add("editing");
  form.elements.title.focus();
}

/// Saves a reminder form with `send(fields, when)` once its day, time and repeat read, then hands what was saved to
/// `saved`. What is wrong, found here or by the server (which names the field), is said beside the field it
/// concerns, and nothing is saved.
function onSubmit(form, problem, send, saved) {
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    clearFieldProblems(form, problem);
    const when = readWhen(form.elements);
    if (when.problem) return fieldProblem(form, problem, ...when.problem);
    let reminder;
    try {
      reminder = await send(form.elements, when);
    } catch (error) {
      return fieldProblem(form, problem, error.parameter ?? "title", error.message);
    }
    await saved(reminder);
  }));
}

/// Marks the field a problem concerns ("recurrence.interval" is the repeat choice) and says why beside it.
function fieldProblem(form, problem, name, message) {
  const field = form.elements[name.split(".")[0] === "recurrence" ? "repeat" : name] ?? form.elements.title;
  problem.id = `${form.id || "reminder-edit"}-problem-${field.name}`;
  sayFieldProblem(field, problem, message);
}

function importReminders() {
  pickFiles({
    accept: ".ics,text/calendar", path: "/api/reminders/import", type: "text/calendar",
    done: async ([summary]) => { await showReminders(); toast(importSummary(summary)); },
  });
}
