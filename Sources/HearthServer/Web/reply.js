// Replying to a message: a strip above the composer quotes it until the reply is sent (or the strip closed);
// the server puts the quote in the turn, and the transcript shows it above the reply.
import { $, el } from "/assets/api.js";
import { shownText } from "/assets/actions.js";

let target = null;

/// The message the next turn replies to, if any.
export function replyTarget() {
  return target;
}

/// Quotes `message` above the composer.
export function replyTo(message) {
  target = { id: message.id, text: message.role === "user" ? (splitQuote(message.content)?.reply ?? message.content) : shownText(message) };
  const strip = $("reply-strip");
  const excerpt = target.text.length > 160 ? `${target.text.slice(0, 160)}…` : target.text;
  strip.replaceChildren(
    el("span", { class: "muted" }, "Replying to"),
    el("blockquote", { class: "reply-quote" }, excerpt),
    el("button", { class: "icon-button", type: "button", "aria-label": "Cancel reply", onclick: () => clearReply() }, "×"));
  strip.hidden = false;
  $("prompt").focus();
}

/// Closes the strip; the next message is no reply.
export function clearReply() {
  target = null;
  $("reply-strip").hidden = true;
  $("reply-strip").replaceChildren();
}

/// A stored reply's quote and its own words (as the server writes it: quote lines, a blank line, the reply).
export function splitQuote(content) {
  if (!content?.startsWith("> ")) return null;
  const gap = content.indexOf("\n\n");
  if (gap < 0) return null;
  const lines = content.slice(0, gap).split("\n");
  if (!lines.every((line) => line.startsWith("> ") || line === ">")) return null;
  return { quote: lines.map((line) => line.slice(2)).join("\n"), reply: content.slice(gap + 2) };
}
