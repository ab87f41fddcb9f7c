// The habits page: what to check in today.
import { $, api, askFirst, attempt, clock, el, getJSON, sendJSON, toast } from "/assets/api.js";

const WEEKDAYS = [["MO", "Mon"], ["TU", "Tue"], ["WE", "Wed"], ["TH", "Thu"], ["FR", "Fri"], ["SA", "Sat"], ["SU", "Sun"]];

/// A schedule as people say it: "Every day", "Mon, Wed, Fri", "3 times a week".
export function scheduleWords(schedule) {
  if (schedule === "daily") return "Every day";
  const weekly = /^(\d)\/week$/.exec(schedule);
  if (weekly) return weekly[1] === "1" ? "Once a week" : `${weekly[1]} times a week`;
  const names = new Map(WEEKDAYS);
  return schedule.split(",").map((day) => names.get(day) ?? day).join(", ");
}

/// The habit form, new or (given `habit`) editing one: how often as a choice, the days as boxes to tick, a
/// weekly count as a number; what is missing is said beside the field it concerns.
function habitForm(habit = null) {
  const schedule = habit?.schedule ?? "daily";
  const weekly = /^(\d)\/week$/.exec(schedule);
  const kind = schedule === "daily" ? "daily" : weekly ? "weekly" : "days";
  const ticked = kind === "days" ? new Set(schedule.split(",")) : new Set();
  const often = el("select", { name: "often", "aria-label": "How often" },
    el("option", { value: "daily" }, "Every day"),
    el("option", { value: "days" }, "On certain days"),
    el("option", { value: "weekly" }, "Times a week"));
  often.value = kind;
  const days = el("fieldset", { class: "weekdays", hidden: kind !== "days" },
    el("legend", { class: "visually-hidden" }, "Days"),
    WEEKDAYS.map(([code, name]) => el("label", { class: "weekday" },
      el("input", { type: "checkbox", name: "day", value: code, checked: ticked.has(code) }), name)));
  const times = el("label", { class: "times", hidden: kind !== "weekly" }, "Times ",
    el("input", { name: "times", type: "number", min: 1, max: 7, value: weekly ? Number(weekly[1]) : 3, "aria-label": "Times a week" }));
  const problem = el("p", { class: "field-error habit-error", id: habit ? null : "habit-error", role: "alert", hidden: true });
  const name = habit ? `Name of “${habit.name}”` : "New habit";
  const form = el("form", { id: habit ? null : "habit-form", class: `inline-form${habit ? " habit-edit" : ""}` },
    el("input", { name: "name", placeholder: "New habit", "aria-label": name, required: true, value: habit?.name ?? "" }),
    often, days, times, el("button", { class: "button primary", type: "submit" }, habit ? "Save" : "Add"),
    habit ? el("button", { class: "button", type: "button", onclick: () => showHabits() }, "Cancel") : null, problem);
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
    const body = { name: form.elements.name.value, schedule };
    if (habit) {
      await sendJSON(`/api/habits/${encodeURIComponent(habit.id)}`, "PUT", body);
    } else {
      await sendJSON("/api/habits", "POST", body);
    }
    await showHabits();
    if (habit) toast(`Saved “${body.name.trim()}”.`);
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

/// Today's last check-in taken back, at any time of the day (not only while the toast offers Undo).
async function takeBackToday(habit) {
  const { logs } = await getJSON(`/api/habits/${encodeURIComponent(habit.id)}/logs`);
  const today = clock.format(clock.today(), false);
  const todays = logs.filter((log) => clock.format(clock.local(new Date(log.at * 1000)), false) === today);
  const last = todays.sort((a, b) => b.at - a.at)[0];
  if (!last) return showHabits();
  await api(`/api/habits/logs/${encodeURIComponent(last.id)}`, { method: "DELETE" });
  await showHabits();
  toast(`Check-in taken back: ${habit.name}.`, { undo: () => checkIn(habit, { at: clock.format(clock.local(new Date(last.at * 1000))) }) });
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
  const done = new Set(stats.done_days);
  const today = clock.today();
  const days = [...Array(stats.window_days).keys()].reverse().map((back) => clock.format(clock.addDays(today, -back), false));
  return el("article", { class: "habit-card", "data-id": habit.id },
    el("header", {}, el("h3", {}, habit.name), el("span", { class: "tag" }, scheduleWords(habit.schedule))),
    el("p", { class: "habit-figures" },
      el("strong", {}, String(stats.current_streak)),
      ` ${stats.current_streak === 1 ? stats.streak_unit.replace(/s$/, "") : stats.streak_unit} streak · best ${stats.longest_streak} · `,
      el("strong", {}, `${Math.round(stats.completion_rate * 100)}%`), ratedOver(stats)),
    el("div", { class: "habit-chart", role: "img", "aria-label": `${done.size} of the last ${stats.window_days} days done` },
      days.map((day) => el("span", { class: done.has(day) ? "on" : "", title: day }))),
    el("div", { class: "row" },
      el("button", {
        class: `button${stats.done_today ? "" : " primary"}`, type: "button", "aria-pressed": String(stats.done_today),
        title: stats.done_today ? "Take back today's check-in" : `Check in ${habit.name} today`,
        onclick: attempt(() => stats.done_today ? takeBackToday(habit) : checkIn(habit, {})),
      }, stats.done_today ? "Done today ✓" : "Check in"),
      backdate(habit),
      // Renamed or given other days in place; its check-ins stay.
      el("button", { class: "icon-button edit-habit", type: "button", title: `Edit “${habit.name}”`,
        onclick: (event) => {
          const edit = habitForm(habit);
          event.currentTarget.closest(".habit-card").replaceWith(edit);
          edit.elements.name.focus();
        } }, "Edit"),
      el("button", { class: "icon-button danger", type: "button", onclick: attempt(async () => {
        if (!(await askFirst(`Delete “${habit.name}” and its check-ins?`))) return;
        await api(`/api/habits/${encodeURIComponent(habit.id)}`, { method: "DELETE" });
        await showHabits();
      }) }, "Delete")));
}

/// What a habit's rate is of: its planned days within the window ("of the 1 planned day in the last 3 days"), or
/// the window itself for a weekly count.
function ratedOver(stats) {
  if (stats.window_days === 1) return " of today";
  const window = `the last ${stats.window_days} days`;
  if (stats.planned_days == null) return ` of ${window}`;
  return ` of the ${stats.planned_days === 1 ? "1 planned day" : `${stats.planned_days} planned days`} in ${window}`;
}
