// The first-run guide in an empty chat: what Hearth is, the model that answers, the data it keeps and where
// to connect accounts, with a few things to ask. It stays until "Got it"; "Show the guide" brings it back.
import { $, el, getJSON } from "/assets/api.js";

const dismissedKey = "hearth.guide.dismissed";

/// Things to ask, each put in the message box when clicked (never sent by itself).
const examples = [
  "What's on my calendar tomorrow?",
  "Remind me to call Sam on Friday at 10",
  "Add milk to my shopping list",
  "When am I free this week?",
];

/// The guide, or once it was put away, a link that brings it back.
export function guideOrLink() {
  const holder = el("div", { class: "guide-holder" });
  const draw = () => holder.replaceChildren(localStorage.getItem(dismissedKey)
    ? el("button", { class: "link-button", type: "button", id: "show-guide", onclick: () => {
      localStorage.removeItem(dismissedKey);
      draw();
    } }, "Show the guide")
    : guide(() => {
      localStorage.setItem(dismissedKey, "1");
      draw();
      $("prompt").focus();
    }));
  draw();
  return holder;
}

function guide(dismiss) {
  const model = el("span", {}, "the model chosen on the Models page");
  getJSON("/api/models").then((view) => {
    if (view.active) model.textContent = view.active.replace(/\.gguf$/i, "");
  }).catch(() => {});
  return el("section", { class: "guide", id: "first-run-guide", "aria-labelledby": "guide-title" },
    el("h3", { id: "guide-title" }, "New to Hearth?"),
    el("p", {}, "Hearth is an assistant that runs on this machine. It reads your calendar, reminders, notes, habits and ",
      "contacts, and proposes changes that run only when you confirm them, with Undo."),
    el("p", {}, "Answers come from ", model, " (", el("a", { href: "#/models" }, "Models"), " to choose another)."),
    el("p", {}, "Your chats and data stay in your profile on this machine. Nothing leaves it unless you add a ",
      "remote model, web search or an account."),
    el("p", {}, "Keep your phone's calendars and contacts in step on the ", el("a", { href: "#/accounts" }, "Accounts"),
      " page (iCloud, Fastmail, Nextcloud, any CalDAV or CardDAV server)."),
    el("div", { class: "guide-examples", role: "group", "aria-label": "Things to ask" },
      examples.map((text) => el("button", { class: "chip", type: "button", onclick: () => {
        const box = $("prompt");
        box.value = text;
        box.dispatchEvent(new Event("input", { bubbles: true }));
        box.focus();
      } }, text))),
    el("button", { class: "button primary", type: "button", onclick: dismiss }, "Got it"));
}
