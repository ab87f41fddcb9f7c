// Files attached to the next message: the paperclip in the composer reads each file's text on the server (OCR for an
// image) and shows it as a pill until the message goes; the message then shows them as pills too.
import { $, api, attempt, el, toast } from "/assets/api.js";

let waiting = [];
let ensureSession = null;

/// A pill for an attachment: its name and how its text was read.
export function attachmentPill(file, onRemove) {
  const how = { ocr: "text read from the image", vision: "the image as the model saw it", pdf: "PDF text" }[file.reading] ?? "text";
  const label = file.name;
  const pill = el("span", { class: "attachment-pill", title: `${how}: ${file.characters ?? "?"} characters` }, label,
    file.reading === "ocr" ? el("span", { class: "pill-note" }, " · OCR") : null,
    file.reading === "vision" ? el("span", { class: "pill-note" }, " · seen by the model") : null);
  if (onRemove) {
    pill.append(el("button", { class: "icon-button", type: "button", "aria-label": `Remove ${file.name}`, onclick: onRemove }, "×"));
  }
  return pill;
}

function render() {
  const strip = $("attachment-strip");
  strip.replaceChildren(...waiting.map((file) => attachmentPill(file, attempt(async () => {
    await api(`/api/attachments/${file.id}`, { method: "DELETE" });
    waiting = waiting.filter((other) => other.id !== file.id);
    render();
  }))));
  strip.hidden = waiting.length === 0;
}

/// The files waiting to go with the next message of `sessionID`, taken off the strip.
export function takeAttachments(sessionID) {
  const taken = waiting.filter((file) => file.session === sessionID);
  waiting = waiting.filter((file) => file.session !== sessionID);
  render();
  return taken;
}

/// Puts files back on the strip (their message was never sent).
export function restoreAttachments(files) {
  waiting = [...files, ...waiting];
  render();
}

async function upload(file) {
  const session = await ensureSession(file.name);
  $("voice-status").hidden = false;
  $("voice-status").textContent = `Reading ${file.name}…`;
  try {
    const response = await api(`/api/sessions/${session.id}/attachments?name=${encodeURIComponent(file.name)}`, {
      method: "POST", body: file, type: file.type || "application/octet-stream",
    });
    const attached = await response.json();
    waiting.push({ ...attached, session: session.id });
    render();
    toast(`${attached.name}: ${attached.characters} characters read${attached.reading === "ocr" ? " from the image" : ""}.`
      + (attached.fallback ? ` (${attached.fallback})` : ""));
  } finally {
    $("voice-status").hidden = true;
  }
}

/// Wires the paperclip; `given` makes the chat a file goes to when none is open.
export function wireAttachments(given) {
  ensureSession = given;
  const input = $("attach-input");
  $("attach").addEventListener("click", () => input.click());
  input.addEventListener("change", attempt(async () => {
    const files = [...input.files];
    input.value = "";
    for (const file of files) await upload(file);
  }));
}
