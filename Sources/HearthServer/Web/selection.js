// Many chats at once: the drawer's Select mode (archive or delete the chosen chats) and Settings' "Clear all
// history". A deletion is held while its Undo is offered and made when the Undo goes; the chats are hidden
// meanwhile. A page closed before then deletes nothing.
import { $, askFirst, attempt, getJSON, sendJSON, showError, toast } from "/assets/api.js";

const chosen = new Set();
let selecting = false;
// The deletion waiting for its Undo to go: the chats' ids, and what redraws the page once it is done.
let pending = null;

/// Whether the drawer is choosing chats rather than opening them.
export function isSelecting() { return selecting; }

/// The chats to show: those not waiting to be deleted.
export function withoutPending(sessions) {
  return pending ? sessions.filter((session) => !pending.ids.has(session.id)) : sessions;
}

/// A session button as Select mode draws it: a box to tick, and a click that ticks it.
export function decorate(button, session) {
  if (!selecting) return;
  const box = document.createElement("input");
  box.type = "checkbox";
  box.className = "pick";
  box.checked = chosen.has(session.id);
  box.tabIndex = -1;
  box.setAttribute("aria-hidden", "true");
  button.prepend(box);
  button.classList.toggle("picked", box.checked);
  button.setAttribute("aria-pressed", String(box.checked));
}

/// Ticks or unticks a chat in Select mode.
export function toggle(id, redraw) {
  if (chosen.has(id)) chosen.delete(id);
  else chosen.add(id);
  showCount();
  redraw();
}

function showCount() {
  $("selection-count").textContent = `${chosen.size} selected`;
  $("selection-archive").disabled = chosen.size === 0;
  $("selection-delete").disabled = chosen.size === 0;
}

/// Deletes `ids` once the Undo offered for it goes, hiding them meanwhile.
async function deleteLater(ids, message, { reload, left }) {
  // An earlier deletion still waiting is made first, so the two never race.
  await commit();
  pending = { ids: new Set(ids) };
  left(pending.ids);
  reload();
  toast(message, {
    undo: async () => {
      pending = null;
      await reload();
    },
  });
  watchToast(reload);
}

// The deletion is made when the toast that offers its Undo is put away (its time is up, another page was
// opened), unless Undo was chosen.
let watcher = null;
function watchToast(reload) {
  watcher?.disconnect();
  const element = $("toast");
  watcher = new MutationObserver(() => {
    if (!element.hidden) return;
    watcher.disconnect();
    commit().then(reload).catch((error) => {
      showError(`The chats could not be deleted: ${error.message}`);
      reload();
    });
  });
  watcher.observe(element, { attributes: true, attributeFilter: ["hidden"] });
}

async function commit() {
  if (!pending) return;
  const ids = [...pending.ids];
  pending = null;
  const outcome = await sendJSON("/api/sessions/bulk", "POST", { ids, action: "delete" });
  if (outcome.skipped.length) {
    toast(`${outcome.skipped.length} chat${outcome.skipped.length === 1 ? " was" : "s were"} kept: ${outcome.skipped[0].reason}`);
  }
}

/// Wires Select mode and Clear all history. `reload` reloads the list; `left(ids)` is told which chats go
/// (the one on screen among them is closed).
export function wireSelection({ reload, left, redraw, archived }) {
  const button = $("select-chats");
  const stopSelecting = () => {
    selecting = false;
    chosen.clear();
    button.textContent = "Select";
    button.setAttribute("aria-pressed", "false");
    $("selection-bar").hidden = true;
    redraw();
  };
  button.addEventListener("click", () => {
    if (selecting) return stopSelecting();
    selecting = true;
    button.textContent = "Done";
    button.setAttribute("aria-pressed", "true");
    $("selection-bar").hidden = false;
    showCount();
    redraw();
  });
  $("selection-archive").addEventListener("click", attempt(async () => {
    const ids = [...chosen];
    // Undo brings back only what this archived: a chat archived before stays so.
    const before = new Set(ids.filter(archived));
    await sendJSON("/api/sessions/bulk", "POST", { ids, action: "archive" });
    stopSelecting();
    await reload();
    toast(`${ids.length} chat${ids.length === 1 ? "" : "s"} archived`, {
      undo: async () => {
        await sendJSON("/api/sessions/bulk", "POST", { ids: ids.filter((id) => !before.has(id)), action: "unarchive" });
        await reload();
      },
    });
  }));
  $("selection-delete").addEventListener("click", attempt(async () => {
    const ids = [...chosen];
    stopSelecting();
    await deleteLater(ids, `${ids.length} chat${ids.length === 1 ? "" : "s"} deleted`, { reload, left });
  }));
  $("clear-history").addEventListener("click", attempt(async () => {
    const pinned = $("clear-pinned").checked;
    const archived = $("clear-archived").checked;
    const { sessions } = await getJSON("/api/sessions?archived=true");
    const going = withoutPending(sessions).filter((s) => (pinned || !s.is_pinned) && (archived || !s.is_archived));
    if (!going.length) return toast("There is no chat to clear.");
    const kept = [pinned ? null : "pinned", archived ? null : "archived"].filter(Boolean);
    const question = `Clear ${going.length} chat${going.length === 1 ? "" : "s"}${kept.length ? ` (${kept.join(" and ")} chats stay)` : ""}?`;
    if (!(await askFirst(question, "Clear"))) return;
    await deleteLater(going.map((s) => s.id), `${going.length} chat${going.length === 1 ? "" : "s"} cleared`, { reload, left });
  }));
}
