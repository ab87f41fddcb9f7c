// Files attached to the next message: the paperclip in the composer reads each file's text on the server (OCR for an
// image) and shows it as a pill until the message goes; the message then shows them as pills too.
import { $, api, attempt, el, toast } from "/assets/api.js";

let waiting = [];
let ensureSession = null;

// Attached images as object URLs, by attachment id: fetched once (with the key, which an <img> cannot send). The
// most recently used are kept; an older one's URL is revoked, so a long visit through many chats does not hold every
// image it showed (a picture already drawn stays drawn; shown again, it is fetched again).
const images = new Map();
const keptImages = 48;

function imageURL(id) {
  const known = images.get(id);
  if (known) {
    images.delete(id);
    images.set(id, known);
    return known;
  }
  const loading = api(`/api/attachments/${id}/content`).then((response) => response.blob()).then((blob) => URL.createObjectURL(blob));
  loading.catch(() => images.delete(id));
  images.set(id, loading);
  while (images.size > keptImages) {
    const [oldest, url] = images.entries().next().value;
    images.delete(oldest);
    url.then((address) => URL.revokeObjectURL(address)).catch(() => {});
  }
  return loading;
}

/// The image at full size, over the page; Esc or Close puts it away.
function showFullSize(file) {
  const dialog = $("image-viewer");
  const image = $("image-viewer-image");
  image.removeAttribute("src");
  image.alt = file.name;
  $("image-viewer-title").textContent = file.name;
  dialog.dataset.id = file.id;
  // A fetch that comes back after another image was opened is not shown.
  imageURL(file.id).then((url) => { if (dialog.dataset.id === file.id) image.src = url; })
    .catch((error) => toast(`${file.name} could not be shown: ${error.message}`));
  dialog.showModal();
}

/// A thumbnail of an attached image that opens it at full size; none for a document.
function thumbnail(file) {
  const type = file.media_type ?? "";
  if (!file.id || !type.startsWith("image/")) return null;
  const image = el("img", { class: "attachment-thumb", alt: file.name, width: "48", height: "48" });
  // An image the browser cannot draw (TIFF) keeps its pill without a picture.
  image.addEventListener("error", () => image.closest("button")?.remove());
  imageURL(file.id).then((url) => { image.src = url; }).catch(() => image.closest("button")?.remove());
  return el("button", { class: "thumb-button", type: "button", "aria-label": `Show ${file.name} full size`, onclick: () => showFullSize(file) }, image);
}

/// A pill for an attachment: its name and how its text was read, with a thumbnail for an image.
export function attachmentPill(file, onRemove) {
  const how = { ocr: "text read from the image", vision: "the image as the model saw it", pdf: "PDF text" }[file.reading] ?? "text";
  const label = file.name;
  const thumb = thumbnail(file);
  const pill = el("span", { class: thumb ? "attachment-pill has-thumb" : "attachment-pill", title: `${how}: ${file.characters ?? "?"} characters` }, thumb, label,
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
