// Action cards: what an answer's blocks did or propose, in place of the raw blocks, with Confirm, Cancel
// and Undo.
import { api, attempt, clock, el, getJSON, sendJSON, toast } from "/assets/api.js";

/// The answer as shown, its blocks left out for their cards: while it streams, the `shown` text the server
/// sent; once stored, its content without the spans the server marked (`action_blocks`, UTF-16 offsets).
export function shownText(message) {
  if (message.shown != null) return message.shown;
  let text = message.content ?? "";
  const blocks = message.action_blocks ?? [];
  for (const [start, end] of [...blocks].sort((a, b) => b[0] - a[0])) {
    text = text.slice(0, start) + text.slice(end);
  }
  text = text.replace(/\n{3,}/g, "\n\n").trim();
  // Answers saved when a drafted change was introduced by these words: the card says it all.
  return blocks.length && text === "Here is what I will do:" ? "" : text;
}

/// One record's card, with the buttons its state allows. An event that overlaps others gets the conflict card's
/// choices instead: Keep it as it is, Cancel it, or Reschedule it to one of the free times the server offers.
export function card(record, { resultShown = false } = {}) {
  const buttons = [];
  const act = (verb, body) => attempt(async () => {
    const updated = body
      ? await sendJSON(`/api/actions/${record.id}/${verb}`, "POST", body)
      : await (await api(`/api/actions/${record.id}/${verb}`, { method: "POST" })).json();
    const next = card(updated);
    node.replaceWith(next);
    // The focus stays where the user was, on the card, not at the top of the page.
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
    // What the step did, as the server tells it: "Deleted “Dentist” (…)", "Undone: Added “Dentist” …".
    toast(updated.narration);
  });
  const conflict = record.conflict;
  let slots = null;
  if (conflict) {
    // Keep: a waiting move runs as asked; an added event stays where it is (the card then offers Undo).
    const keep = record.state === "pending" ? act("confirm")
      : () => { const next = card({ ...record, conflict: undefined }); node.replaceWith(next); next.focus({ preventScroll: true }); };
    buttons.push(el("button", { class: "button primary conflict-keep", type: "button", onclick: keep }, "Keep"));
    buttons.push(el("button", { class: "button conflict-cancel", type: "button",
      onclick: act(record.state === "pending" ? "cancel" : "undo") }, "Cancel"));
    if (conflict.slots.length) {
      slots = el("div", { class: "row wrap conflict-slots", hidden: true, role: "group", "aria-label": "Free times" },
        conflict.slots.map((slot) => el("button", { class: "chip conflict-slot", type: "button",
          "data-start": slot.start, onclick: act("reschedule", { start: slot.start }) },
          `${clock.readable(slot.start.slice(0, 16))}–${clock.time(slot.end)}`)));
      buttons.push(el("button", { class: "button conflict-reschedule", type: "button", "aria-expanded": "false",
        onclick: (event) => {
          slots.hidden = !slots.hidden;
          event.currentTarget.setAttribute("aria-expanded", String(!slots.hidden));
        } }, "Reschedule"));
    }
  } else {
    if (record.state === "pending") {
      buttons.push(el("button", { class: "button primary", type: "button", onclick: act("confirm") }, "Confirm"));
      buttons.push(el("button", { class: "button", type: "button", onclick: act("cancel") }, "Cancel"));
    }
    if (["created", "updated", "deleted"].includes(record.state)) {
      buttons.push(el("button", { class: "button", type: "button", onclick: act("undo") }, "Undo"));
    }
  }
  const when = (overlap) => overlap.all_day ? `${clock.readable(overlap.start.slice(0, 10))}, all day`
    : overlap.start.slice(0, 10) === overlap.end.slice(0, 10)
      ? `${clock.readable(overlap.start.slice(0, 16))}–${clock.time(overlap.end)}`
      : `${clock.readable(overlap.start.slice(0, 16))} – ${clock.readable(overlap.end.slice(0, 16))}`;
  const overlaps = conflict ? el("div", { class: "action-conflict" }, "Overlaps " + conflict.overlaps.map((overlap) =>
    `“${overlap.title}” (${when(overlap)})`).join(", ")
    + (conflict.slots.length ? "." : "; no free time this week to move it to.")) : null;
  // The overlap line says what the summary's own "; it overlaps …" would say again.
  const line = conflict ? (record.line ?? record.summary).replace(/; it overlaps .*$/, "") : record.line ?? record.summary;
  const node = el("div", { class: `action-card state-${record.state}`, "data-id": record.id, "data-state": record.state,
    tabindex: "-1", role: "group", "aria-label": `${record.label}: ${line}` },
    // The state's words are the server's ("Done", "Needs your OK"), read with the line after them, told as
    // what happened ("Done — Moved …", "Done — Added note …").
    el("div", { class: "action-head" }, el("span", { class: "action-state" }, record.label),
      el("span", { class: "action-summary" }, line)),
    record.source ? el("div", { class: "action-source" }, record.source.startsWith("mcp: ")
      ? `Asked for by ${record.source.slice(5)} (MCP)` : "Proposed by an automation") : null,
    record.result && !resultShown ? el("pre", { class: "action-result" }, record.result) : null,
    record.reason && record.state !== "cancelled" ? el("div", { class: "action-reason" }, record.reason) : null,
    overlaps,
    buttons.length ? el("div", { class: "row" }, buttons) : null,
    slots);
  return node;
}

/// Shows `records` under the answer `element`, replacing cards shown before.
/// `answerText` is the answer as written so far, when the page may not have drawn all of it yet.
export function showCards(element, records, answerText = null) {
  element.querySelector(".action-cards")?.remove();
  if (!records.length) return;
  // What a look-up found, when the answer above already lists it, is not listed again on its card.
  const said = (answerText ?? element.textContent).replace(/\s+/g, " ");
  const shown = (result) => result.split("\n").map((line) => line.replace(/^\s*[-*•]\s*/, "").replace(/\s+/g, " ").trim())
    .filter(Boolean).every((line) => said.includes(line));
  const cards = el("div", { class: "action-cards" },
    records.map((record) => card(record, { resultShown: Boolean(record.result) && shown(record.result) })));
  element.append(cards);
  // A card that waits for the user is brought into reach, above the composer.
  if (records.some((record) => record.state === "pending")) cards.scrollIntoView({ block: "nearest" });
}

/// Loads a session's cards and puts each under its answer.
export async function loadCards(sessionID, container) {
  const { actions } = await getJSON(`/api/actions?session=${sessionID}`);
  const byMessage = new Map();
  for (const record of actions.slice().reverse()) {
    if (!record.message_id) continue;
    byMessage.set(record.message_id.toLowerCase(), [...(byMessage.get(record.message_id.toLowerCase()) ?? []), record]);
  }
  for (const element of container.querySelectorAll(".message.assistant")) {
    const records = byMessage.get((element.dataset.id ?? "").toLowerCase());
    if (records) showCards(element, records);
  }
}
