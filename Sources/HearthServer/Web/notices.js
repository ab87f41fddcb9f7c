// Notices: reminders coming due, events about to start, habits not yet checked in, a copy a sync kept. Every open page looks every
// ten seconds (and when it comes back into view), shows each standing notice once in the corner with its
// actions, and hands it to the browser's own notifications when the user allowed them.
import { $, api, attempt, el, getJSON } from "/assets/api.js";

const shown = new Map();

function card(notice) {
  const settle = (path, body) => attempt(async () => {
    await api(`/api/notices/${notice.id}/${path}`, { method: "POST", json: body });
    remove(notice.id);
  });
  if (notice.kind === "automation" || notice.kind === "sync") {
    // An automation's answer opens its chat; a sync's kept copy, the calendar it is in.
    const target = notice.kind === "sync" ? "#/calendar" : `#/s/${notice.item_id}`;
    return el("div", { class: `notice-card kind-${notice.kind}`, role: "status", "data-id": notice.id },
      el("a", { class: "notice-title", href: target, onclick: settle("dismiss") }, notice.title),
      el("div", { class: "notice-detail" }, notice.detail),
      el("div", { class: "row wrap" },
        el("a", { class: "button primary", href: target, onclick: settle("dismiss") }, "Open"),
        el("button", { class: "button", type: "button", onclick: settle("dismiss") }, "Dismiss")));
  }
  const buttons = [
    notice.kind === "event" ? null : el("button", { class: "button primary", type: "button", onclick: settle("done") },
      notice.kind === "habit" ? "Check in" : "Done"),
    el("button", { class: "button", type: "button", onclick: settle("snooze", { for: "10m" }) }, "10 min"),
    el("button", { class: "button", type: "button", onclick: settle("snooze", { for: "1h" }) }, "1 h"),
    el("button", { class: "button", type: "button", onclick: settle("snooze", { for: "tomorrow" }) }, "Tomorrow"),
    el("button", { class: "icon-button", type: "button", "aria-label": "Dismiss", onclick: settle("dismiss") }, "×"),
  ];
  const open = notice.kind === "event" ? "#/calendar" : notice.kind === "habit" ? "#/habits" : "#/reminders";
  return el("div", { class: `notice-card kind-${notice.kind}`, role: "status", "data-id": notice.id },
    el("a", { class: "notice-title", href: open }, notice.title),
    el("div", { class: "notice-detail" }, notice.detail),
    el("div", { class: "row wrap" }, buttons));
}

function remove(id) {
  shown.get(id)?.remove();
  shown.set(id, null);
  $("notices").hidden = !$("notices").children.length;
}

function tellTheDesktop(notice) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const note = new Notification(notice.title, { body: notice.detail, tag: notice.id });
  note.onclick = () => { window.focus(); shown.get(notice.id)?.scrollIntoView(); };
}

async function look() {
  const { notices } = await getJSON("/api/notices");
  const standing = new Set(notices.map((notice) => notice.id));
  for (const [id, node] of shown) {
    if (node && !standing.has(id)) remove(id); // dealt with elsewhere
  }
  for (const notice of notices) {
    if (shown.has(notice.id)) continue;
    const node = card(notice);
    shown.set(notice.id, node);
    $("notices").append(node);
    tellTheDesktop(notice);
  }
  $("notices").hidden = !$("notices").children.length;
  const ask = $("notices-allow");
  ask.hidden = !("Notification" in window) || Notification.permission !== "default" || !$("notices").children.length;
}

/// Starts looking for notices.
export function watchNotices() {
  const check = () => look().catch(() => {});
  $("notices-allow").addEventListener("click", attempt(async () => {
    await Notification.requestPermission();
    $("notices-allow").hidden = true;
  }));
  check();
  setInterval(check, 10_000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
}
