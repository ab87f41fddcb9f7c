// The conversation on screen: messages and their actions (copy, read aloud, regenerate, edit, continue), the
// sources an answer drew on, and the switch between the versions kept where a chat went more than one way.
import { renderMarkdown } from "/assets/markdown.js";
import { $, copyText, el, toast } from "/assets/api.js";
import { shownText } from "/assets/actions.js";
import { readAloudButton } from "/assets/voice.js";
import { fillBriefing } from "/assets/briefing.js";
import { state } from "/assets/state.js";
import { replyTo, splitQuote } from "/assets/reply.js";
import { pin } from "/assets/prompts.js";
import { attachmentPill } from "/assets/attachments.js";
import { guideOrLink } from "/assets/guide.js";

// What the actions do; set by the turn code (`setMessageHandlers`).
const handlers = { regenerate: null, edit: null, continueAnswer: null, showVersion: null };

export function setMessageHandlers(given) {
  Object.assign(handlers, given);
}

export function messageElement(message) {
  const wrapper = document.createElement("article");
  wrapper.className = `message ${message.role}`;
  const thinking = document.createElement("details");
  thinking.className = "thinking";
  thinking.hidden = true;
  const summary = document.createElement("summary");
  summary.textContent = "Thinking";
  const thinkingText = document.createElement("div");
  thinkingText.className = "thinking-text";
  thinking.append(summary, thinkingText);
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  wrapper.append(thinking, bubble);
  fillMessage(wrapper, message);
  return wrapper;
}

export function fillMessage(element, message) {
  element.message = message;
  if (message.id) element.dataset.id = message.id;
  if (message.index != null) element.dataset.index = message.index;
  const bubble = element.querySelector(".bubble");
  if (message.role === "user") {
    const replying = splitQuote(message.content);
    if (replying) bubble.replaceChildren(el("blockquote", { class: "reply-quote" }, replying.quote), replying.reply);
    else bubble.textContent = message.content;
    element.querySelector(".attachment-pills")?.remove();
    if (message.attachments?.length) {
      bubble.after(el("div", { class: "attachment-pills" }, message.attachments.map((file) => attachmentPill(file))));
    }
  } else {
    bubble.replaceChildren(renderMarkdown(shownText(message)));
  }
  element.querySelector(".message-time")?.remove();
  if (message.created_at != null) element.querySelector(".bubble").after(messageTime(message.created_at));
  const thinking = element.querySelector(".thinking");
  const showThinking = state.settings?.show_thinking !== false;
  thinking.hidden = !showThinking || !message.thinking;
  element.querySelector(".thinking-text").textContent = message.thinking || "";
  bubble.classList.toggle("cursor", message.state === "generating");
  element.querySelectorAll(".stats, .notice").forEach((node) => node.remove());
  const notice = noticeFor(message);
  if (notice) element.append(el("div", { class: "notice" }, notice));
  if (message.role === "assistant" && message.state !== "generating" && message.generated_tokens) {
    const parts = [];
    if (message.provider) parts.push(message.provider === "remote" ? "remote model" : "on this machine");
    parts.push(`${message.generated_tokens} tokens`);
    if (message.generation_tokens_per_second) parts.push(`${message.generation_tokens_per_second.toFixed(1)} tokens/s`);
    if (message.time_to_first_token_ms != null) parts.push(`first token ${Math.round(message.time_to_first_token_ms)} ms`);
    element.append(el("div", { class: "stats" }, parts.join(" · ")));
  }
  showActions(element);
}

/// When a message was written: the time today, the day and time before.
function messageTime(createdAt) {
  const date = new Date(typeof createdAt === "number" ? createdAt * 1000 : createdAt);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  const shown = sameDay ? time : `${date.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
  return el("time", { class: "message-time", datetime: date.toISOString(), title: date.toLocaleString() }, shown);
}

/// The row under a message: its versions, then what can be done with it. A message still being written has none.
function showActions(element) {
  element.querySelector(".message-actions")?.remove();
  const message = element.message;
  if (message.state === "generating" || !message.id || element.querySelector(".edit-form")) return;
  const row = el("div", { class: `message-actions${message.role === "assistant" ? " answer-actions" : ""}` });
  if (element.fork) row.append(versionSwitch(element.fork));
  const button = (label, className, onclick, title) => {
    const node = el("button", { class: `link-button ${className}`, type: "button", title: title ?? label }, label);
    node.addEventListener("click", onclick);
    return node;
  };
  const text = message.role === "user" ? message.content : shownText(message);
  if (message.role === "user") {
    row.append(button("Edit", "edit-message", () => startEdit(element), "Change this message and send it again"));
    row.append(button("Pin", "pin-prompt", () => pin(splitQuote(text)?.reply ?? text).catch((error) => toast(error.message)),
      "Keep this message as a pinned prompt above the message box"));
  } else if (message.role === "assistant") {
    if (text.trim()) row.append(copyButton(text));
    const reader = text.trim() ? readAloudButton(text) : null;
    if (reader) row.append(reader);
    row.append(button("Regenerate", "regenerate", () => handlers.regenerate?.(element),
      "Answer again; this answer is kept as another version"));
    if (continuable(message)) {
      row.append(button("Continue", "continue-answer", () => handlers.continueAnswer?.(element),
        "Carry on this answer where it stopped"));
    }
  }
  row.append(button("Reply", "reply-message", () => replyTo(message), "Reply to this message, quoting it"));
  if (row.childElementCount) element.append(row);
}

function copyButton(text) {
  const copy = el("button", { class: "link-button copy-answer", type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    const copied = await copyText(text);
    copy.textContent = copied ? "Copied" : "Copying is blocked here: select the text";
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  });
  return copy;
}

/// An answer left unfinished can go on (only the chat's last one: the stylesheet hides the rest).
function continuable(message) {
  if (!message.content?.trim()) return false;
  return ["cancelled", "timed_out", "interrupted", "failed"].includes(message.state) || message.stop_reason === "max_tokens";
}

/// ‹ 2 / 3 › under the first message of a fork.
function versionSwitch(fork) {
  const nav = el("span", { class: "versions", role: "group", "aria-label": "Versions" });
  const step = (delta, label, symbol) => {
    const target = fork.current + delta;
    const node = el("button", { class: "link-button version-step", type: "button", "aria-label": label, title: label }, symbol);
    node.disabled = target < 0 || target >= fork.count;
    node.addEventListener("click", () => handlers.showVersion?.(fork.position, target));
    return node;
  };
  nav.append(step(-1, "Previous version", "‹"), el("span", { class: "version-count" }, `${fork.current + 1} / ${fork.count}`),
    step(1, "Next version", "›"));
  return nav;
}

/// The user's message becomes a box to change it in; sending it keeps the old one as another version.
function startEdit(element) {
  if (element.querySelector(".edit-form")) return;
  const bubble = element.querySelector(".bubble");
  const box = el("textarea", { class: "edit-box", "aria-label": "Edit your message", rows: "3" });
  box.value = element.message.content;
  const send = el("button", { class: "button primary", type: "submit" }, "Send");
  const cancel = el("button", { class: "button", type: "button" }, "Cancel");
  const form = el("form", { class: "edit-form" }, box, el("div", { class: "row" }, cancel, send));
  const finish = () => {
    form.remove();
    bubble.hidden = false;
    showActions(element);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = box.value.trim();
    if (!text) return;
    if (text === element.message.content.trim()) { finish(); return; }
    handlers.edit?.(element, text);
  });
  cancel.addEventListener("click", finish);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); form.requestSubmit(); }
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); finish(); }
  });
  bubble.hidden = true;
  element.querySelector(".message-actions")?.remove();
  bubble.after(form);
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}

export function noticeFor(message) {
  switch (message.state) {
    case "cancelled": return "Stopped.";
    case "timed_out": return "Stopped: the time limit was reached; the partial answer was kept.";
    case "interrupted": return "Interrupted.";
    case "failed": return `Failed: ${message.error ?? "unknown error"}`;
    default:
      if (message.stop_reason === "max_tokens") return "The answer reached its length limit.";
      if (message.stop_reason === "context_full") return "The conversation filled the model's context.";
      if (message.stop_reason === "repetition") return "The answer began repeating itself, so it was stopped there.";
      return null;
  }
}

/// Marks the first message of every fork with its version switch.
export function showForks(list, forks) {
  const byPosition = new Map((forks ?? []).map((fork) => [fork.position, fork]));
  for (const element of list.querySelectorAll("article.message")) {
    const fork = byPosition.get(Number(element.dataset.index)) ?? null;
    if ((element.fork?.count ?? 0) === (fork?.count ?? 0) && element.fork?.current === fork?.current) continue;
    element.fork = fork;
    showActions(element);
  }
}

export function renderConversation(session, messages, forks) {
  const list = $("messages");
  list.replaceChildren();
  if (!session || messages.length === 0) list.append(emptyState());
  for (const message of messages) list.append(messageElement(message));
  showForks(list, forks);
  list.scrollTop = list.scrollHeight;
}

function emptyState() {
  const briefing = el("div", { class: "briefing", hidden: true });
  fillBriefing(briefing).catch(() => {});
  return el("div", { class: "empty-state" }, el("h2", {}, "What can I help with?"),
    el("p", {}, "Everything runs on this machine. Your chats stay in your own database."), briefing, guideOrLink());
}

/// The sources an answer drew on, numbered as it cites them, each linking to where it lives.
export function showSources(element, citations) {
  element.querySelector(".sources")?.remove();
  if (!citations?.length) return;
  const line = el("div", { class: "sources" }, "Sources: ");
  citations.forEach((citation, index) => {
    const place = citation.heading && citation.heading !== citation.title ? ` › ${citation.heading}` : "";
    const href = citation.collection === "conversations" ? `#/s/${citation.location}`
      : citation.collection === "notes" ? `#/notes/${encodeURIComponent(citation.location)}`
        : `#/memory/${encodeURIComponent(citation.source_id)}`;
    const kind = { conversations: "the chat", notes: "the note", documents: "the document in the memory" }[citation.collection]
      ?? "it in the memory";
    if (index > 0) line.append(" · ");
    // The tooltip is the cited words themselves; a document's link opens the memory page on them.
    line.append(el("a", {
      href, title: citation.passage ? `“${citation.passage}” (open ${kind})` : `Open ${kind}`,
      onclick: () => { state.citedPassage = { sourceID: citation.source_id, passage: citation.passage }; },
    }, `[${citation.number}] ${citation.title}${place}`));
  });
  const actions = element.querySelector(".message-actions");
  if (actions) actions.before(line); else element.append(line);
}
