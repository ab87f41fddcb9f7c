// The Briefing card on an empty chat: the day at a glance, from the user's own data (GET /api/briefing):
// events, free time, reminders due and overdue, habits to do and birthdays in the week ahead.
import { $, clock as dates, el, getJSON } from "/assets/api.js";

const clock = (localDateTime) => localDateTime.slice(11, 16);

function hours(minutes) {
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes / 60} h`;
}

/// Fills `card` with today's briefing; it stays hidden if the briefing cannot be had.
export async function fillBriefing(card) {
  const briefing = await getJSON("/api/briefing");
  const sections = [];
  const section = (title, items) => {
    if (!items.length) return;
    sections.push(el("section", { class: "briefing-section" }, el("h4", {}, title),
      el("ul", {}, items.map((item) => el("li", {}, item)))));
  };
  section("Events", briefing.events.map((event) =>
    `${event.is_all_day ? "All day" : `${clock(event.start)}–${clock(event.end)}`}  ${event.title}`
    + (event.location ? ` · ${event.location}` : "")));
  section("Free", briefing.free_time.slice(0, 3).map((slot) =>
    `${clock(slot.start)}–${clock(slot.end)} (${hours(slot.minutes)})`));
  section("Due", briefing.due.map((task) => task.title));
  section("Overdue", briefing.overdue.map((task) => `${task.title} (since ${dates.readable(task.due.time.slice(0, 10))})`));
  section("Habits", briefing.habits.map((habit) => `${habit.done ? "✓" : "○"} ${habit.name}`));
  section("Birthdays", briefing.birthdays.map((birthday) =>
    `${birthday.name}, ${birthday.in_days === 0 ? "today" : birthday.in_days === 1 ? "tomorrow" : dates.readable(birthday.date)}`
    + (birthday.turns ? ` (turns ${birthday.turns})` : "")));
  const day = new Date(`${briefing.date}T12:00:00`).toLocaleDateString(undefined,
    { weekday: "long", day: "numeric", month: "long" });
  const ask = (text) => () => {
    $("prompt").value = text;
    $("composer").requestSubmit();
  };
  card.replaceChildren(el("h3", { class: "briefing-title" }, `Your day · ${day}`),
    sections.length ? el("div", { class: "briefing-sections" }, sections) : el("p", {}, "Nothing planned and nothing due."),
    briefing.suggestions.length
      ? el("div", { class: "suggestions", role: "group", "aria-label": "Suggested questions" },
        briefing.suggestions.map((text) => el("button", { class: "chip", type: "button", onclick: ask(text) }, text)))
      : null);
  card.hidden = false;
}
