// Action cards: what an answer's blocks did or propose, in place of the raw blocks, with Confirm, Cancel
// and Undo.
import { api, attempt, el, getJSON, toast } from "/assets/api.js";

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

/// One record's card, with the buttons its state allows.
export function card(record) {
  const buttons = [];
  const act = (verb) => attempt(async () => {
    const updated = await (await api(`/api/actions/${record.id}/${verb}`, { method: "POST" })).json();
    const next = card(updated);
    node.replaceWith(next);
    // The focus stays where the user was, on the card, not at the top of the page.
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
    // What the step did, as the server tells it: "Deleted “Dentist” (…)", "Undone: Added “Dentist” …".
    toast(updated.narration);
  });
  if (record.state === "pending") {
    buttons.push(el("button", { class: "button primary", type: "button", onclick: act("confirm") }, "Confirm"));
    buttons.push(el("button", { class: "button", type: "button", onclick: act("cancel") }, "Cancel"));
  }
  if (["created", "updated", "deleted"].includes(record.state)) {
    buttons.push(el("button", { class: "button", type: "button", onclick: act("undo") }, "Undo"));
  }
  const node = el("div", { class: `action-card state-${record.state}`, "data-id": record.id, "data-state": record.state,
    tabindex: "-1", role: "group", "aria-label": `${record.label}: ${record.summary}` },
    // The state's words are the server's ("Done", "Needs your OK"), read with the summary after them.
    el("div", { class: "action-head" }, el("span", { class: "action-state" }, record.label),
      el("span", { class: "action-summary" }, record.summary)),
    record.source ? el("div", { class: "action-source" }, record.source.startsWith("mcp: ")
      ? `Asked for by ${record.source.slice(5)} (MCP)` : "Proposed by an automation") : null,
    record.result ? el("pre", { class: "action-result" }, record.result) : null,
    record.reason && record.state !== "cancelled" ? el("div", { class: "action-reason" }, record.reason) : null,
    buttons.length ? el("div", { class: "row" }, buttons) : null);
  return node;
}

/// Shows `records` under the answer `element`, replacing cards shown before.
export function showCards(element, records) {
  element.querySelector(".action-cards")?.remove();
  if (!records.length) return;
  const cards = el("div", { class: "action-cards" }, records.map(card));
  element.append(cards);
  // A card that waits for the user is brought into reach, above the composer.
  if (records.some((record) => record.state === "pending")) cards.scrollIntoView({ block: "nearest" });
}

/// Loads a session's cards and puts each under its answer.
export async function loadCards(sessionID, container) {
  const { actions } = await getJSON(`/api/actions?session=${sessionID}`);
  const byMessage = new Map();
  for (const record of actions.slice().reverse()) {
    if (!record.messageID) continue;
    byMessage.set(record.messageID.toLowerCase(), [...(byMessage.get(record.messageID.toLowerCase()) ?? []), record]);
  }
  for (const element of container.querySelectorAll(".message.assistant")) {
    const records = byMessage.get((element.dataset.id ?? "").toLowerCase());
    if (records) showCards(element, records);
  }
}
