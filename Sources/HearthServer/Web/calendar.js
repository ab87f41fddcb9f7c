// The calendar page: a day or a week (hours down, days across, a line at the current time), a month, or an agenda
// (the next two weeks as a list: a phone's first view), events added and edited in a dialog, overlaps of busy
// events marked, iCalendar import and export.
import { $, api, askFirst, attempt, clock, drawPage, el, getJSON, importSummary, pickFiles, sendJSON, toast } from "/assets/api.js";

const HOUR = 44;
const narrow = window.matchMedia("(max-width: 640px)");
// A phone opens on the agenda: seven columns of hours do not fit its width.
const state = { mode: narrow.matches ? "agenda" : "week", anchor: clock.today(), occurrences: [], nowTimer: null };
const modes = [["day", "Day"], ["week", "Week"], ["month", "Month"], ["agenda", "Agenda"]];
const agendaDays = 14;

function rangeStart() {
  if (state.mode === "day" || state.mode === "agenda") return state.anchor;
  if (state.mode === "week") {
    const shift = (state.anchor.getUTCDay() + 6) % 7;
    return clock.addDays(state.anchor, -shift);
  }
  const first = new Date(Date.UTC(state.anchor.getUTCFullYear(), state.anchor.getUTCMonth(), 1));
  return clock.addDays(first, -((first.getUTCDay() + 6) % 7));
}

// Each calendar keeps one colour: Personal the app's own, the others one of these, chosen by their name.
const palette = ["#2563eb", "#15803d", "#7c3aed", "#be185d", "#0e7490"];

function colorOf(calendar) {
  if (!calendar || calendar === "Personal") return "var(--accent)";
  let hash = 0;
  for (const character of calendar) hash = (hash * 31 + character.codePointAt(0)) >>> 0;
  return palette[hash % palette.length];
}

/// The calendars in view, each with its colour, when there is more than one.
function legend() {
  const names = [...new Set(state.occurrences.map((item) => item.event.calendar || "Personal"))].sort();
  if (names.length < 2) return null;
  return el("p", { class: "calendar-legend small", "aria-label": "Calendars" }, names.map((name) =>
    el("span", { class: "calendar-key" }, el("span", { class: "swatch", style: `background:${colorOf(name)}`, "aria-hidden": "true" }), name)));
}

function rangeDays() { return { day: 1, week: 7, month: 42, agenda: agendaDays }[state.mode]; }

function rangeTitle(start, end) {
  if (state.mode === "month") {
    return state.anchor.toLocaleDateString(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
  }
  if (state.mode === "day") {
    return start.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  }
  return clock.span(start, clock.addDays(end, -1));
}

function body(start) {
  if (state.mode === "month") return monthView(start);
  if (state.mode === "agenda") return agendaView(start);
  return weekView(start, rangeDays());
}

export async function show() {
  const view = $("view-calendar");
  const start = rangeStart();
  const end = clock.addDays(start, rangeDays());
  const data = await getJSON(`/api/calendar/occurrences?from=${clock.format(start, false)}&to=${clock.format(end, false)}`);
  state.occurrences = data.occurrences;
  markConflicts(state.occurrences);
  const title = rangeTitle(start, end);
  view.replaceChildren(
    el("div", { class: "page-bar" },
      el("button", { class: "icon-button", type: "button", title: "Earlier", onclick: () => move(-1) }, "‹"),
      el("button", { class: "button", type: "button", onclick: () => { state.anchor = clock.today(); show(); } }, "Today"),
      el("button", { class: "icon-button", type: "button", title: "Later", onclick: () => move(1) }, "›"),
      el("strong", { class: "page-title", id: "calendar-range" }, title),
      el("div", { class: "segmented", role: "group", "aria-label": "View" },
        modes.map(([mode, label]) => el("button", {
          type: "button", class: state.mode === mode ? "on" : "", "aria-pressed": String(state.mode === mode),
          "data-mode": mode, onclick: () => setMode(mode),
        }, label))),
      el("button", { class: "button primary", id: "add-event", type: "button", onclick: () => openEditor(newEvent(clock.format(clock.today(), false) + "T09:00")) }, "New event"),
      el("button", { class: "button", type: "button", onclick: importCalendar }, "Import"),
      el("button", { class: "button", type: "button", onclick: exportCalendar }, "Export")),
    el("p", { class: "muted small" }, `Times are ${zoneName(data.time_zone)}.`),
    legend() ?? "",
    body(start));
  const grid = view.querySelector(".week-scroll");
  if (grid) grid.scrollTop = 7.5 * HOUR;
  clearInterval(state.nowTimer);
  if (grid) state.nowTimer = setInterval(placeNowLine, 60000);
}

function move(step) {
  const days = { day: 1, week: 7, agenda: agendaDays }[state.mode];
  state.anchor = days
    ? clock.addDays(state.anchor, days * step)
    : new Date(Date.UTC(state.anchor.getUTCFullYear(), state.anchor.getUTCMonth() + step, 1));
  drawPage(show);
}

/// The line across today's column at the current minute (on this device's clock, as "today" is).
function placeNowLine() {
  const column = document.querySelector(`#view-calendar .day-column[data-date="${clock.format(clock.today(), false)}"]`);
  document.querySelectorAll("#view-calendar .now-line").forEach((line) => { if (line.parentElement !== column) line.remove(); });
  if (!column) return;
  const now = new Date();
  const line = column.querySelector(".now-line") ?? el("div", { class: "now-line", "aria-hidden": "true" });
  line.style.top = `${((now.getHours() * 60 + now.getMinutes()) / 60) * HOUR}px`;
  line.dataset.minute = String(now.getHours() * 60 + now.getMinutes());
  if (!line.isConnected) column.append(line);
}

function setMode(mode) {
  state.mode = mode;
  drawPage(show);
}

/// Busy occurrences that overlap another busy one get `conflict`: the rule the assistant's cards and
/// `hearth calendar add` use, so a busy all-day event (a move, a trip) clashes with what falls on its days.
function markConflicts(occurrences) {
  const busy = occurrences.filter((item) => item.event.is_busy && item.starts_at < item.ends_at);
  for (const item of busy) {
    item.conflict = busy.some((other) => other !== item && other.starts_at < item.ends_at && item.starts_at < other.ends_at);
  }
}

function occurrencesOn(day) {
  const date = clock.format(day, false);
  return state.occurrences.filter((item) => {
    if (item.event.is_all_day) return item.start.slice(0, 10) <= date && date < item.end.slice(0, 10);
    return item.start.slice(0, 10) === date;
  });
}

function weekView(start, count) {
  const days = [...Array(count).keys()].map((offset) => clock.addDays(start, offset));
  const today = clock.format(clock.today(), false);
  const header = el("div", { class: "week-head" }, el("div"),
    days.map((day) => el("div", { class: clock.format(day, false) === today ? "today" : "" },
      `${clock.weekday(day)} ${day.getUTCDate()}`)));
  const allDay = el("div", { class: "week-allday" }, el("div", { class: "muted small" }, "all day"),
    days.map((day) => el("div", {}, occurrencesOn(day).filter((item) => item.event.is_all_day).map(chip))));
  const hours = el("div", { class: "week-hours", style: `height:${24 * HOUR}px` }, [...Array(24).keys()].map((hour) =>
    el("div", { class: "hour-label", style: `top:${hour * HOUR}px` }, `${String(hour).padStart(2, "0")}:00`)));
  const columns = days.map((day) => {
    const column = el("div", { class: "day-column", "data-date": clock.format(day, false), style: `height:${24 * HOUR}px` });
    column.addEventListener("click", (event) => {
      if (event.target !== column) return;
      const hour = Math.floor(event.offsetY / HOUR);
      openEditor(newEvent(`${clock.format(day, false)}T${String(hour).padStart(2, "0")}:00`));
    });
    const timed = occurrencesOn(day).filter((entry) => !entry.event.is_all_day);
    const placement = lanes(timed);
    for (const item of timed) column.append(block(item, placement.get(item)));
    return column;
  });
  const week = el("div", { class: `week${count === 1 ? " one-day" : ""}`, style: `--days:${count}` }, header, allDay,
    el("div", { class: "week-scroll" }, el("div", { class: "week-grid" }, hours, columns)));
  queueMicrotask(placeNowLine);
  return week;
}

/// The coming days as a list: each day with events, its events in order, all-day ones first.
function agendaView(start) {
  const today = clock.format(clock.today(), false);
  const days = [...Array(agendaDays).keys()].map((offset) => clock.addDays(start, offset)).map((day) => {
    const items = occurrencesOn(day).sort((a, b) => (b.event.is_all_day - a.event.is_all_day) || (a.starts_at - b.starts_at));
    if (!items.length) return null;
    const date = clock.format(day, false);
    const name = day.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
    return el("section", { class: "agenda-day", "data-date": date },
      el("h3", { class: date === today ? "today" : "" }, date === today ? `Today · ${name}` : name),
      el("ul", {}, items.map((item) => el("li", {},
        el("button", { type: "button", class: `agenda-event${item.conflict ? " conflict" : ""}`, style: `--event-color:${colorOf(item.event.calendar)}`, onclick: () => openEditor(item.event, item) },
          el("span", { class: "agenda-time" }, item.event.is_all_day ? "All day" : `${clock.time(item.start)}–${clock.time(item.end)}`),
          el("span", { class: "agenda-title" }, item.event.title),
          item.event.location ? el("span", { class: "agenda-place muted" }, item.event.location) : null,
          item.conflict ? el("span", { class: "conflict-mark" }, "⚠ overlaps") : null)))));
  }).filter(Boolean);
  return el("div", { class: "agenda" },
    days.length ? days : el("p", { class: "empty-state muted" }, "Nothing in these two weeks. Add an event with New event."));
}

/// Side-by-side lanes for overlapping events: each cluster of overlaps shares its width.
function lanes(items) {
  const sorted = [...items].sort((a, b) => a.starts_at - b.starts_at || b.ends_at - a.ends_at);
  const placement = new Map();
  let cluster = [];
  let clusterEnd = -Infinity;
  const close = () => {
    const count = Math.max(...cluster.map((item) => placement.get(item).lane)) + 1;
    for (const item of cluster) placement.get(item).count = count;
    cluster = [];
  };
  for (const item of sorted) {
    if (cluster.length && item.starts_at >= clusterEnd) {
      close();
      clusterEnd = -Infinity;
    }
    const used = new Set(cluster.filter((other) => other.ends_at > item.starts_at).map((other) => placement.get(other).lane));
    let lane = 0;
    while (used.has(lane)) lane += 1;
    placement.set(item, { lane, count: 1 });
    cluster.push(item);
    clusterEnd = Math.max(clusterEnd, item.ends_at);
  }
  if (cluster.length) close();
  return placement;
}

function minutes(text) { return Number(text.slice(11, 13)) * 60 + Number(text.slice(14, 16)); }

function block(item, { lane, count } = { lane: 0, count: 1 }) {
  const top = (minutes(item.start) / 60) * HOUR;
  const sameDay = item.end.slice(0, 10) === item.start.slice(0, 10);
  const bottom = sameDay ? (minutes(item.end) / 60) * HOUR : 24 * HOUR;
  const height = Math.max(bottom - top, 18);
  // Too short for two lines (under about 40 minutes): the title first, on one line, then the start.
  const short = height < 2 * 16 + 4;
  const range = `${clock.time(item.start)}–${clock.time(item.end)}`;
  // Beside another event the block is narrow: the title comes first there too, so it is what shows.
  const words = short || count > 1
    ? [el("span", { class: "event-title" }, item.event.title), " ", el("span", { class: "event-time" }, short ? clock.time(item.start) : range)]
    : [el("span", { class: "event-time" }, range), " ", el("span", { class: "event-title" }, item.event.title)];
  const button = el("button", {
    type: "button", class: `event-block${item.conflict ? " conflict" : ""}${item.event.is_busy ? "" : " free"}${short ? " short" : ""}`,
    style: `top:${top}px;height:${height}px;left:calc(${(lane / count) * 100}% + 2px);width:calc(${100 / count}% - 4px);--event-color:${colorOf(item.event.calendar)}`,
    title: item.conflict ? `${item.event.title}, ${range}: overlaps another event` : `${item.event.title}, ${range}`,
    onclick: () => { if (!button.dataset.dragged) openEditor(item.event, item); },
  }, ...words, item.conflict ? el("span", { class: "conflict-mark", "aria-label": "overlaps" }, " ⚠") : null,
  sameDay ? el("span", { class: "resize-handle", "aria-hidden": "true" }) : null);
  draggable(button, item);
  return button;
}

/// Minutes added to a "YYYY-MM-DDTHH:MM" time.
function shifted(text, minutes) {
  return clock.format(new Date(clock.parse(text).getTime() + minutes * 60000));
}

/// A block dragged to another time or day moves the event there; its lower edge dragged changes its end. Steps of
/// 15 minutes; a repeating event's occurrence moves alone ("this event only"). Undo puts it back. The editor
/// (click, or Enter on the focused block) does the same from the keyboard. Mouse and pen drag at once; a finger
/// holds first.
function draggable(button, item) {
  button.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    if (down.pointerType === "touch") holdToDrag(button, item, down);
    else drag(button, item, down);
  });
  // A finger held on a block moves it; the page must not scroll under it then, nor open its context menu.
  button.addEventListener("touchmove", (event) => { if (button.dataset.held) event.preventDefault(); }, { passive: false });
  button.addEventListener("contextmenu", (event) => { if (button.dataset.held) event.preventDefault(); });
}

/// A finger scrolls the day as usual and a tap opens the editor; held still for a moment on a block, it picks
/// the block up, as phone calendars do, and then drags it like a mouse.
function holdToDrag(button, item, down) {
  const timer = setTimeout(() => {
    forget();
    button.dataset.held = "true";
    navigator.vibrate?.(10);
    drag(button, item, down, () => delete button.dataset.held);
  }, 450);
  const moved = (event) => { if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) > 8) forget(); };
  const forget = () => {
    clearTimeout(timer);
    button.removeEventListener("pointermove", moved);
    button.removeEventListener("pointerup", forget);
    button.removeEventListener("pointercancel", forget);
  };
  button.addEventListener("pointermove", moved);
  button.addEventListener("pointerup", forget);
  button.addEventListener("pointercancel", forget);
}

/// Follows the pointer from `down` until it is lifted, then moves (or stretches) the event; `ended` hears the end.
function drag(button, item, down, ended = () => {}) {
  const resizing = down.target.classList.contains("resize-handle");
  const home = button.parentElement;
  const top = parseFloat(button.style.top);
  const height = parseFloat(button.style.height);
  let moved = false;
  let minutes = 0;
  let column = home;
  button.setPointerCapture(down.pointerId);
  const move = (event) => {
    const dy = event.clientY - down.clientY;
    if (!moved && Math.hypot(dy, event.clientX - down.clientX) < 5) return;
    moved = true;
    button.classList.add("dragging");
    minutes = Math.round((dy / HOUR) * 4) * 15;
    if (resizing) {
      minutes = Math.max(minutes, 15 - Math.round((height / HOUR) * 60));
      button.style.height = `${height + (minutes / 60) * HOUR}px`;
      return;
    }
    button.style.top = `${top + (minutes / 60) * HOUR}px`;
    const under = document.elementsFromPoint(event.clientX, event.clientY).find((node) => node.classList?.contains("day-column"));
    if (under && under !== column) { column = under; column.append(button); }
  };
  const up = () => {
    button.removeEventListener("pointermove", move);
    button.removeEventListener("pointerup", up);
    button.removeEventListener("pointercancel", up);
    ended();
    if (!moved) return;
    // The click that ends a drag does not open the editor.
    button.dataset.dragged = "true";
    setTimeout(() => delete button.dataset.dragged, 0);
    const days = Math.round((clock.parse(column.dataset.date) - clock.parse(home.dataset.date)) / 86400000);
    const startShift = resizing ? 0 : days * 1440 + minutes;
    const endShift = resizing ? minutes : startShift;
    if (!startShift && !endShift) { drawPage(show); return; }
    attempt(() => reschedule(item, startShift, endShift))();
  };
  button.addEventListener("pointermove", move);
  button.addEventListener("pointerup", up);
  button.addEventListener("pointercancel", up);
}

async function reschedule(item, startShift, endShift) {
  const { event } = item;
  const exceptions = event.exceptions ?? [];
  let undo;
  if (event.recurrence) {
    const end = shifted(item.series_start, durationOf(event));
    const single = { ...seriesBody(event, []), start: shifted(item.series_start, startShift), end: shifted(end, endShift) };
    delete single.recurrence;
    const created = await sendJSON("/api/calendar/events", "POST", single);
    try {
      await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT", seriesBody(event, [...exceptions, item.series_start]));
    } catch (error) {
      await api(`/api/calendar/events/${encodeURIComponent(created.event.id)}`, { method: "DELETE" }).catch(() => {});
      await show();
      throw error;
    }
    undo = async () => {
      await api(`/api/calendar/events/${encodeURIComponent(created.event.id)}`, { method: "DELETE" });
      await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT", seriesBody(event, exceptions));
    };
  } else {
    await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT", {
      ...seriesBody(event, exceptions), start: shifted(event.start, startShift), end: shifted(event.end, endShift),
    });
    undo = () => sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT", seriesBody(event, exceptions));
  }
  await show();
  const start = shifted(item.start, startShift);
  const end = shifted(item.end, endShift);
  toast(`“${event.title}” now ${clock.readable(start.slice(0, 10))}, ${clock.time(start)}–${clock.time(end)}.`, {
    undo: async () => { await undo(); await show(); },
  });
}

/// An event's length in minutes.
function durationOf(event) {
  return Math.round((clock.parse(event.end) - clock.parse(event.start)) / 60000);
}

function chip(item) {
  const time = item.event.is_all_day ? null : clock.time(item.start);
  return el("button", {
    type: "button", class: `event-chip${item.conflict ? " conflict" : ""}`, style: `--event-color:${colorOf(item.event.calendar)}`,
    title: time ? `${time} ${item.event.title}` : item.event.title,
    onclick: (event) => { event.stopPropagation(); openEditor(item.event, item); },
  }, time ? el("span", { class: "chip-time" }, `${time} `) : null, item.event.title);
}

function monthView(start) {
  const month = state.anchor.getUTCMonth();
  const today = clock.format(clock.today(), false);
  const names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((name) => el("div", { class: "month-name" }, name));
  const cells = [...Array(42).keys()].map((offset) => {
    const day = clock.addDays(start, offset);
    const date = clock.format(day, false);
    const cell = el("div", {
      class: `month-cell${day.getUTCMonth() === month ? "" : " other"}${date === today ? " today" : ""}`, "data-date": date,
    }, el("span", { class: "month-day" }, String(day.getUTCDate())), occurrencesOn(day).slice(0, 4).map(chip));
    cell.addEventListener("click", (event) => { if (event.target === cell) openEditor(newEvent(`${date}T09:00`)); });
    return cell;
  });
  return el("div", { class: "month" }, names, cells);
}

function newEvent(start) {
  const end = clock.format(new Date(clock.parse(start).getTime() + 3600000));
  return { title: "", start, end, is_all_day: false, is_busy: true, calendar: "Personal", location: "", notes: "" };
}

// The event being edited, and the occurrence it was opened from (a repeating event's one day).
const editing = { event: null, occurrence: null };

/// Whether the form changes one occurrence of a repeating event rather than the whole series.
function changesOneOccurrence() {
  return Boolean(editing.event?.recurrence && editing.occurrence) && $("event-form").elements.scope.value === "one";
}

function fillTimes(start, end, allDay) {
  const form = $("event-form");
  form.elements.date.value = start.slice(0, 10);
  form.elements.startTime.value = allDay ? "09:00" : start.slice(11, 16);
  form.elements.endDate.value = allDay ? clock.format(clock.addDays(clock.parse(end), -1), false) : end.slice(0, 10);
  form.elements.endTime.value = allDay ? "10:00" : end.slice(11, 16);
}

/// The scope chosen: this occurrence shows its own day and cannot repeat; the series shows its first one.
function syncScope() {
  const form = $("event-form");
  const one = changesOneOccurrence();
  const { event, occurrence } = editing;
  if (one) fillTimes(occurrence.start, occurrence.end, event.is_all_day);
  else fillTimes(event.start, event.end, event.is_all_day);
  form.elements.repeat.value = one ? "" : event.recurrence?.frequency ?? "";
  form.elements.repeat.disabled = one;
  form.dataset.span = String(minutesBetween(form));
}

function openEditor(event, occurrence = null) {
  const dialog = $("event-dialog");
  const form = $("event-form");
  form.reset();
  editing.event = event;
  editing.occurrence = occurrence;
  form.dataset.id = event.id ?? "";
  form.elements.title.value = event.title;
  fillTimes(event.start, event.end, event.is_all_day);
  form.elements.allDay.checked = event.is_all_day;
  form.elements.location.value = event.location ?? "";
  form.elements.notes.value = event.notes ?? "";
  form.elements.calendar.value = event.calendar ?? "Personal";
  form.elements.busy.checked = event.is_busy !== false;
  form.elements.repeat.value = event.recurrence?.frequency ?? "";
  form.dataset.recurrence = event.recurrence ? JSON.stringify(event.recurrence) : "";
  form.dataset.zone = event.zone ?? "floating";
  form.dataset.span = String(minutesBetween(form));
  form.elements.repeat.disabled = false;
  $("event-scope").hidden = !(event.id && event.recurrence && occurrence);
  if (!$("event-scope").hidden) syncScope();
  showEventError("");
  $("event-delete").hidden = !event.id;
  $("event-conflicts").replaceChildren();
  $("event-dialog-title").textContent = event.id ? "Edit event" : "New event";
  syncAllDay();
  dialog.showModal();
  form.elements.title.focus();
}

function syncAllDay() {
  const form = $("event-form");
  form.elements.startTime.hidden = form.elements.allDay.checked;
  form.elements.endTime.hidden = form.elements.allDay.checked;
}

function eventFromForm() {
  const form = $("event-form");
  const allDay = form.elements.allDay.checked;
  const start = allDay ? `${form.elements.date.value}T00:00` : `${form.elements.date.value}T${form.elements.startTime.value}`;
  const end = allDay
    ? `${clock.format(clock.addDays(clock.parse(form.elements.endDate.value || form.elements.date.value), 1), false)}T00:00`
    : `${form.elements.endDate.value || form.elements.date.value}T${form.elements.endTime.value}`;
  const body = {
    title: form.elements.title.value, start, end, is_all_day: allDay, location: form.elements.location.value, notes: form.elements.notes.value,
    calendar: form.elements.calendar.value, is_busy: form.elements.busy.checked, zone: allDay ? "floating" : form.dataset.zone || "floating",
  };
  if (form.elements.repeat.value) {
    const previous = form.dataset.recurrence ? JSON.parse(form.dataset.recurrence) : null;
    body.recurrence = previous && previous.frequency === form.elements.repeat.value ? previous : { frequency: form.elements.repeat.value };
    // A series keeps the days it leaves out (moved or deleted occurrences): the API replaces the whole event.
    if (form.dataset.id && editing.event?.exceptions?.length) body.exceptions = editing.event.exceptions;
  }
  return body;
}

/// Minutes from the form's start to its end (NaN while a field is not a time).
function minutesBetween(form) {
  const { date, startTime, endDate, endTime } = form.elements;
  const start = Date.parse(`${date.value}T${startTime.value}`);
  const end = Date.parse(`${endDate.value || date.value}T${endTime.value}`);
  return (end - start) / 60_000;
}

/// The end that keeps the event's length when its start moves.
function followStart() {
  const form = $("event-form");
  const span = Number(form.dataset.span);
  const { date, startTime, endDate, endTime } = form.elements;
  if (!Number.isFinite(span) || span <= 0 || !/^\d\d:\d\d$/.test(startTime.value)) return;
  const start = new Date(`${date.value}T${startTime.value}`);
  if (Number.isNaN(start.getTime())) return;
  const end = new Date(start.getTime() + span * 60_000);
  const pad = (number) => String(number).padStart(2, "0");
  endDate.value = `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}`;
  endTime.value = `${pad(end.getHours())}:${pad(end.getMinutes())}`;
}

// The form's fields for each field the API names in an error.
const fieldsOfParameter = {
  title: ["title"], start: ["date", "startTime"], end: ["endDate", "endTime"], location: ["location"],
  calendar: ["calendar"], notes: ["notes"], recurrence: ["repeat"], is_all_day: ["allDay"], is_busy: ["busy"],
};

/// Says what is wrong in the form itself, by the fields and the Save button, marking the fields it concerns
/// (`parameter` as the API names it); "" clears it.
function showEventError(message, parameter = null) {
  const form = $("event-form");
  const line = $("event-error");
  line.textContent = message;
  line.hidden = !message;
  for (const field of form.querySelectorAll("[aria-invalid]")) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
  const names = parameter ? fieldsOfParameter[parameter.split(".")[0]] ?? [] : [];
  for (const name of names) {
    form.elements[name]?.setAttribute("aria-invalid", "true");
    form.elements[name]?.setAttribute("aria-describedby", "event-error");
  }
  if (names.length) form.elements[names[0]]?.focus();
}

async function saveEvent(submitEvent) {
  submitEvent.preventDefault();
  const form = $("event-form");
  const id = form.dataset.id;
  if (!form.elements.allDay.checked) {
    for (const field of [form.elements.startTime, form.elements.endTime]) {
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(field.value)) {
        showEventError(`Write the ${field.name === "startTime" ? "start" : "end"} time as hours and minutes, such as 14:30.`,
          field.name === "startTime" ? "start" : "end");
        field.focus();
        return;
      }
    }
    if (!(minutesBetween(form) > 0)) {
      showEventError("The event ends before it starts: set the end after the start.", "end");
      form.elements.endTime.focus();
      return;
    }
  }
  let saved;
  try {
    if (id && changesOneOccurrence()) {
      saved = await saveOneOccurrence();
    } else {
      saved = id
        ? await sendJSON(`/api/calendar/events/${encodeURIComponent(id)}`, "PUT", eventFromForm())
        : await sendJSON("/api/calendar/events", "POST", eventFromForm());
    }
  } catch (error) {
    showEventError(`Not saved: ${error.message}`, error.parameter);
    return;
  }
  showEventError("");
  await show();
  if (saved.conflicts.length) {
    const names = saved.conflicts.map((item) => `${item.event.title} (${clock.readable(item.start.slice(0, 16))}–${clock.time(item.end)})`);
    $("event-conflicts").replaceChildren(el("p", { class: "warning" }, `Saved. It overlaps ${names.join(", ")}.`),
      el("button", { class: "button", type: "button", onclick: () => $("event-dialog").close() }, "OK"));
    form.dataset.id = saved.event.id;
    $("event-delete").hidden = false;
  } else {
    $("event-dialog").close();
    toast(`Saved “${saved.event.title}”`);
  }
}

/// The series as the API takes it, with `exceptions` for the occurrences it leaves out.
function seriesBody(event, exceptions) {
  const { title, start, end, zone, is_all_day, location, notes, calendar, is_busy, recurrence } = event;
  return { title, start, end, zone, is_all_day, location, notes, calendar, is_busy, recurrence, exceptions };
}

/// One occurrence changed: it becomes an event of its own, and the series leaves that day out. Made in that
/// order, and the new event removed again if the series cannot be changed, so nothing is doubled or lost.
async function saveOneOccurrence() {
  const { event, occurrence } = editing;
  const single = eventFromForm();
  delete single.recurrence;
  const saved = await sendJSON("/api/calendar/events", "POST", single);
  try {
    await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT",
      seriesBody(event, [...(event.exceptions ?? []), occurrence.series_start]));
  } catch (error) {
    await api(`/api/calendar/events/${encodeURIComponent(saved.event.id)}`, { method: "DELETE" }).catch(() => {});
    throw error;
  }
  return saved;
}

async function deleteEvent() {
  const form = $("event-form");
  if (changesOneOccurrence()) {
    const { event, occurrence } = editing;
    const before = event.exceptions ?? [];
    await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT",
      seriesBody(event, [...before, occurrence.series_start]));
    $("event-dialog").close();
    await show();
    toast(`Deleted “${event.title}” on ${occurrence.start.slice(0, 10)}; the rest of the series stays.`, {
      undo: async () => {
        await sendJSON(`/api/calendar/events/${encodeURIComponent(event.id)}`, "PUT", seriesBody(event, before));
        await show();
      },
    });
    return;
  }
  if (!(await askFirst(editing.event?.recurrence ? "Delete every event in this series?" : "Delete this event?"))) return;
  const deleted = await (await api(`/api/calendar/events/${encodeURIComponent(form.dataset.id)}`, { method: "DELETE" })).json();
  $("event-dialog").close();
  await show();
  toast(`Deleted “${deleted.title}”`);
}

function importCalendar() {
  pickFiles({
    accept: ".ics,text/calendar", path: "/api/calendar/import", type: "text/calendar",
    done: async ([result]) => {
      await show();
      toast(importSummary(result.events) + (result.reminders.added + result.reminders.replaced ? `; ${importSummary(result.reminders)}` : ""));
    },
  });
}

async function exportCalendar() {
  const response = await api("/api/calendar/export");
  download(await response.blob(), "hearth-calendar.ics");
}

export function download(blob, name) {
  const link = el("a", { href: URL.createObjectURL(blob), download: name, hidden: true });
  document.body.append(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

export function wire() {
  $("event-form").addEventListener("submit", attempt(saveEvent));
  $("event-form").elements.allDay.addEventListener("change", syncAllDay);
  // Moving the start moves the end with it; changing the end changes the length.
  for (const name of ["date", "startTime"]) $("event-form").elements[name].addEventListener("input", followStart);
  for (const name of ["endDate", "endTime"]) {
    $("event-form").elements[name].addEventListener("input", () => {
      const span = minutesBetween($("event-form"));
      if (span > 0) $("event-form").dataset.span = String(span);
    });
  }
  $("event-delete").addEventListener("click", attempt(deleteEvent));
  for (const radio of $("event-form").elements.scope) radio.addEventListener("change", syncScope);
  $("event-cancel").addEventListener("click", () => $("event-dialog").close());
}

/// A time zone as people say it: "Paris time (Europe/Paris)", "UTC" for the machine's Etc/UTC.
export function zoneName(zone) {
  if (!zone || /^(Etc\/)?(UTC|GMT|UCT|Zulu|Universal)$/i.test(zone)) return "in UTC";
  const city = zone.split("/").pop().replaceAll("_", " ");
  return `${city} time (${zone})`;
}
