// The reminders and habits pages: what is due and what to check in today.
import { $, api, attempt, clock, el, getJSON, importSummary, pickFiles, sendJSON, toast } from "/assets/api.js";
import { download } from "/assets/calendar.js";

const reminderState = { list: "" };

export async function showReminders() {
  const view = $("view-reminders");
  const { reminders } = await getJSON("/api/reminders");
  const lists = [...new Set(["Reminders", ...reminders.map((item) => item.list)])].sort();
  const today = clock.format(clock.today(), false);
  const open = reminders.filter((item) => !item.completedAt && (!reminderState.list || item.list === reminderState.list));
  const overdue = open.filter((item) => item.due && item.due.time.slice(0, 10) < today);
  const dueToday = open.filter((item) => item.due && item.due.time.slice(0, 10) === today);
  const later = open.filter((item) => !dueToday.includes(item) && !overdue.includes(item));
  const done = reminders.filter((item) => item.completedAt && (!reminderState.list || item.list === reminderState.list));
  const listFilter = el("select", { id: "reminder-list-filter", "aria-label": "List" },
    el("option", { value: "" }, "All lists"), lists.map((name) => el("option", { value: name, selected: name === reminderState.list }, name)));
  listFilter.addEventListener("change", () => { reminderState.list = listFilter.value; showReminders().catch(() => {}); });
  const form = el("form", { id: "reminder-form", class: "inline-form" },
    el("input", { name: "title", placeholder: "New reminder", "aria-label": "New reminder", required: true }),
    el("input", { name: "due", type: "date", "aria-label": "Due date" }),
    el("input", { name: "time", type: "time", "aria-label": "Due time" }),
    el("select", { name: "priority", "aria-label": "Priority" },
      ["none", "low", "medium", "high"].map((value) => el("option", { value }, value === "none" ? "No priority" : value))),
    el("input", { name: "list", list: "reminder-lists", placeholder: "List", "aria-label": "List", value: reminderState.list || "Reminders" }),
    el("datalist", { id: "reminder-lists" }, lists.map((name) => el("option", { value: name }))),
    el("button", { class: "button primary", type: "submit" }, "Add"));
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const fields = form.elements;
    const due = fields.due.value ? (fields.time.value ? `${fields.due.value}T${fields.time.value}` : fields.due.value) : undefined;
    await sendJSON("/api/reminders", "POST", { title: fields.title.value, due, priority: fields.priority.value, list: fields.list.value });
    await showReminders();
    $("reminder-form").elements.title.focus();
  }));
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

function section(title, reminders, empty) {
  return el("section", { class: "list-section" }, el("h3", {}, title),
    reminders.length ? el("ul", { class: "item-list" }, reminders.map(reminderRow)) : el("p", { class: "muted" }, empty));
}

function reminderRow(reminder) {
  const box = el("input", { type: "checkbox", checked: Boolean(reminder.completedAt), "aria-label": `Done: ${reminder.title}` });
  box.addEventListener("change", attempt(async () => {
    await sendJSON(`/api/reminders/${encodeURIComponent(reminder.id)}/complete`, "POST", { done: box.checked });
    await showReminders();
  }));
  const due = reminder.due ? (reminder.due.isDateOnly ? reminder.due.time.slice(0, 10) : reminder.due.time.replace("T", " ").slice(0, 16)) : "";
  const overdue = reminder.due && !reminder.completedAt && reminder.due.time.slice(0, 10) < clock.format(clock.today(), false);
  return el("li", { class: `item-row${reminder.completedAt ? " completed" : ""}`, "data-id": reminder.id },
    el("label", { class: "check" }, box, el("span", {}, reminder.title)),
    due ? el("span", { class: `tag${overdue ? " overdue" : ""}` }, due) : null,
    reminder.priority && reminder.priority !== "none" ? el("span", { class: `tag priority-${reminder.priority}` }, reminder.priority) : null,
    el("span", { class: "tag" }, reminder.list),
    el("button", { class: "icon-button edit-reminder", type: "button", title: `Edit “${reminder.title}”`,
      onclick: (event) => editReminder(event.currentTarget.closest("li"), reminder) }, "Edit"),
    el("button", { class: "icon-button danger", type: "button", title: "Delete", onclick: attempt(async () => {
      await api(`/api/reminders/${encodeURIComponent(reminder.id)}`, { method: "DELETE" });
      await showReminders();
      toast(`Deleted “${reminder.title}”.`, { undo: async () => {
        const due = reminder.due ? (reminder.due.isDateOnly ? reminder.due.time.slice(0, 10) : reminder.due.time.slice(0, 16)) : undefined;
        await sendJSON("/api/reminders", "POST", { title: reminder.title, due, priority: reminder.priority ?? "none", list: reminder.list });
        await showReminders();
        toast(`“${reminder.title}” is back.`);
      } });
    }) }, "Delete"));
}

/// The row becomes a form for the reminder's every field; Save (or Enter) keeps the changes, Cancel (or Esc) puts
/// the row back. What the server finds wrong is said beside the field it concerns.
function editReminder(row, reminder) {
  const date = reminder.due ? reminder.due.time.slice(0, 10) : "";
  const time = reminder.due && !reminder.due.isDateOnly ? reminder.due.time.slice(11, 16) : "";
  const problem = el("p", { class: "field-error", role: "alert", hidden: true });
  const form = el("form", { class: "inline-form reminder-edit", "aria-label": `Edit “${reminder.title}”` },
    el("input", { name: "title", value: reminder.title, "aria-label": "Title", required: true }),
    el("input", { name: "due", type: "date", value: date, "aria-label": "Due date" }),
    el("input", { name: "time", type: "time", value: time, "aria-label": "Due time" }),
    el("select", { name: "priority", "aria-label": "Priority" },
      ["none", "low", "medium", "high"].map((value) => el("option", { value, selected: value === (reminder.priority ?? "none") },
        value === "none" ? "No priority" : value))),
    el("input", { name: "list", list: "reminder-lists", value: reminder.list, "aria-label": "List" }),
    el("textarea", { name: "notes", rows: 2, placeholder: "Notes", "aria-label": "Notes" }, reminder.notes ?? ""),
    el("button", { class: "button primary", type: "submit" }, "Save"),
    el("button", { class: "button", type: "button", onclick: () => showReminders().catch(() => {}) }, "Cancel"),
    problem);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); showReminders().catch(() => {}); }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = form.elements;
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    problem.hidden = true;
    if (fields.time.value && !fields.due.value) {
      return fieldProblem(form, problem, "due", "A time needs a day: choose the date too, or clear the time.");
    }
    const due = fields.due.value ? (fields.time.value ? `${fields.due.value}T${fields.time.value}` : fields.due.value) : undefined;
    try {
      await sendJSON(`/api/reminders/${encodeURIComponent(reminder.id)}`, "PUT", {
        title: fields.title.value, due, priority: fields.priority.value, list: fields.list.value,
        notes: fields.notes.value, completed: Boolean(reminder.completedAt),
      });
    } catch (error) {
      return fieldProblem(form, problem, error.parameter ?? "title", error.message);
    }
    await showReminders();
    toast(`Saved “${fields.title.value.trim()}”.`);
  });
  row.replaceChildren(form);
  row.classList.add("editing");
  form.elements.title.focus();
}

function fieldProblem(form, problem, name, message) {
  const field = form.elements[name] ?? form.elements.title;
  field.setAttribute("aria-invalid", "true");
  problem.id = `reminder-problem-${name}`;
  field.setAttribute("aria-describedby", problem.id);
  problem.textContent = message;
  problem.hidden = false;
  field.after(problem);
  field.focus();
}

function importReminders() {
  pickFiles({
    accept: ".ics,text/calendar", path: "/api/reminders/import", type: "text/calendar",
    done: async ([summary]) => { await showReminders(); toast(importSummary(summary)); },
  });
}

const WEEKDAYS = [["MO", "Mon"], ["TU", "Tue"], ["WE", "Wed"], ["TH", "Thu"], ["FR", "Fri"], ["SA", "Sat"], ["SU", "Sun"]];

/// A schedule as people say it: "Every day", "Mon, Wed, Fri", "3 times a week".
export function scheduleWords(schedule) {
  if (schedule === "daily") return "Every day";
  const weekly = /^(\d)\/week$/.exec(schedule);
  if (weekly) return weekly[1] === "1" ? "Once a week" : `${weekly[1]} times a week`;
  const names = new Map(WEEKDAYS);
  return schedule.split(",").map((day) => names.get(day) ?? day).join(", ");
}

/// The new-habit form: how often as a choice, the days as boxes to tick, a weekly count as a number; what is
/// missing is said beside the field it concerns.
function habitForm() {
  const often = el("select", { name: "often", "aria-label": "How often" },
    el("option", { value: "daily" }, "Every day"),
    el("option", { value: "days" }, "On certain days"),
    el("option", { value: "weekly" }, "Times a week"));
  const days = el("fieldset", { class: "weekdays", hidden: true },
    el("legend", { class: "visually-hidden" }, "Days"),
    WEEKDAYS.map(([code, name]) => el("label", { class: "weekday" }, el("input", { type: "checkbox", name: "day", value: code }), name)));
  const times = el("label", { class: "times", hidden: true }, "Times ",
    el("input", { name: "times", type: "number", min: 1, max: 7, value: 3, "aria-label": "Times a week" }));
  const problem = el("p", { id: "habit-error", class: "field-error", role: "alert", hidden: true });
  const form = el("form", { id: "habit-form", class: "inline-form" },
    el("input", { name: "name", placeholder: "New habit", "aria-label": "New habit", required: true }),
    often, days, times, el("button", { class: "button primary", type: "submit" }, "Add"), problem);
  const say = (text) => { problem.textContent = text; problem.hidden = !text; };
  often.addEventListener("change", () => {
    days.hidden = often.value !== "days";
    times.hidden = often.value !== "weekly";
    say("");
  });
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    let schedule = "daily";
    if (often.value === "days") {
      const ticked = [...form.querySelectorAll("input[name='day']:checked")].map((box) => box.value);
      if (!ticked.length) return say("Tick at least one day.");
      schedule = ticked.join(",");
    } else if (often.value === "weekly") {
      const count = Number(form.elements.times.value);
      if (!(count >= 1 && count <= 7)) return say("A week has room for 1 to 7 times.");
      schedule = `${count}/week`;
    }
    say("");
    await sendJSON("/api/habits", "POST", { name: form.elements.name.value, schedule });
    await showHabits();
  }));
  return form;
}

export async function showHabits() {
  const view = $("view-habits");
  const { habits } = await getJSON("/api/habits");
  view.replaceChildren(
    el("div", { class: "page-bar" }, el("strong", { class: "page-title" }, "Habits")),
    habitForm(),
    habits.length ? el("div", { class: "habit-grid" }, habits.map(habitCard)) : el("p", { class: "muted" }, "No habits yet."));
}

/// Checks in (now, or on the day given) and offers to take it back.
async function checkIn(habit, body) {
  const { log } = await sendJSON(`/api/habits/${encodeURIComponent(habit.id)}/log`, "POST", body);
  await showHabits();
  const when = body.at ? ` for ${body.at.slice(0, 10)}` : "";
  toast(`Checked in: ${habit.name}${when}.`, { undo: async () => {
    await api(`/api/habits/logs/${encodeURIComponent(log.id)}`, { method: "DELETE" });
    await showHabits();
    toast(`Check-in taken back: ${habit.name}.`);
  } });
}

/// A check-in for a day gone by: the day, then the button.
function backdate(habit) {
  const today = clock.format(clock.today(), false);
  const day = el("input", { type: "date", max: today, value: clock.format(clock.addDays(clock.today(), -1), false),
    "aria-label": `Another day to check in ${habit.name}` });
  return el("span", { class: "backdate" }, day, el("button", { class: "button", type: "button",
    onclick: attempt(() => day.value ? checkIn(habit, { at: `${day.value}T12:00` }) : Promise.resolve()) }, "Check in that day"));
}

function habitCard({ habit, stats }) {
  const done = new Set(stats.doneDays);
  const today = clock.today();
  const days = [...Array(stats.windowDays).keys()].reverse().map((back) => clock.format(clock.addDays(today, -back), false));
  return el("article", { class: "habit-card", "data-id": habit.id },
    el("header", {}, el("h3", {}, habit.name), el("span", { class: "tag" }, scheduleWords(habit.schedule))),
    el("p", { class: "habit-figures" },
      el("strong", {}, String(stats.currentStreak)),
      ` ${stats.currentStreak === 1 ? stats.streakUnit.replace(/s$/, "") : stats.streakUnit} streak · best ${stats.longestStreak} · `,
      el("strong", {}, `${Math.round(stats.completionRate * 100)}%`), ` of ${stats.windowDays} days`),
    el("div", { class: "habit-chart", role: "img", "aria-label": `${done.size} of the last ${stats.windowDays} days done` },
      days.map((day) => el("span", { class: done.has(day) ? "on" : "", title: day }))),
    el("div", { class: "row" },
      el("button", {
        class: `button${stats.doneToday ? "" : " primary"}`, type: "button", disabled: stats.doneToday,
        onclick: attempt(() => checkIn(habit, {})),
      }, stats.doneToday ? "Done today ✓" : "Check in"),
      backdate(habit),
      el("button", { class: "icon-button danger", type: "button", onclick: attempt(async () => {
        if (!window.confirm(`Delete “${habit.name}” and its check-ins?`)) return;
        await api(`/api/habits/${encodeURIComponent(habit.id)}`, { method: "DELETE" });
        await showHabits();
      }) }, "Delete")));
}
