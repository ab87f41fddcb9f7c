// The chat page: the chats drawer and search, the chat on screen, the composer, the other views and the wiring.
import { $, api, askFirst, attempt, drawPage, getJSON, sendJSON, showError, toast } from "/assets/api.js";
import { focus, pages, wirePages } from "/assets/pages.js";
import { loadCards } from "/assets/actions.js";
import { watchWaiting, wireMCPSettings } from "/assets/waiting.js";
import { wireToolServers } from "/assets/toolservers.js";
import { wireBackups } from "/assets/backups.js";
import { loadDevices, wireDevices } from "/assets/devices.js";
import { registerWorker, wirePush } from "/assets/push.js";
import { wirePrompts } from "/assets/prompts.js";
import { wireHistoryImport } from "/assets/history.js";
import { wireAttachments } from "/assets/attachments.js";
import { watchNotices } from "/assets/notices.js";
import { closeFind, openFind, wireFind } from "/assets/find.js";
import { loadDiagnostics, wireDiagnostics } from "/assets/diagnostics.js";
import { loadRuntime, wireRuntime } from "/assets/runtime.js";
import { loadProjector, wireProjector } from "/assets/projector.js";
import { refresh as loadPulls, wirePulls } from "/assets/pulls.js";
import { loadRemote, wireRemote } from "/assets/remote.js";
import { loadWebSearch, wireWebSearch } from "/assets/websearch.js";
import { setUpVoice } from "/assets/voice.js";
import { setUpHandsFree } from "/assets/handsfree.js";
import { closeDrawer, wireDrawer } from "/assets/drawer.js";
import { showHit, snippetNode, wireResultKeys } from "/assets/search.js";
import { currentTurn, state } from "/assets/state.js";
import { renderConversation, showSources } from "/assets/conversation.js";
import { refreshForks, send, setGenerating, stop, wireTurns } from "/assets/turn.js";
import { watchChat, wireLive } from "/assets/live.js";
import { fillSettings, loadSettings, mayLeaveSettings, wireSettings } from "/assets/settings.js";
import { loadModels, showModelName } from "/assets/models.js";
import { fillPersonaPicker } from "/assets/personas.js";
import { fillTemplatePicker, loadTemplates, templateNamed, wireTemplates } from "/assets/templates.js";
import { decorate, isSelecting, toggle, wireSelection, withoutPending } from "/assets/selection.js";

// ---- Sessions drawer ------------------------------------------------------------------------------

async function loadSessions() {
  const archived = $("show-archived").checked;
  const { sessions } = await getJSON(`/api/sessions${archived ? "?archived=true" : ""}`);
  // Chats waiting to be deleted (their Undo still offered) are not shown.
  state.sessions = withoutPending(sessions);
  if ($("search").value.trim() === "") renderSessionList();
}

function relativeTime(seconds) {
  const delta = Date.now() / 1000 - seconds;
  if (delta < 60) return "just now";
  if (delta < 3600) return `${Math.floor(delta / 60)} min ago`;
  if (delta < 86400) return `${Math.floor(delta / 3600)} h ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}

function sessionButton(session, detail, hit) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "session-item" + (session.id === state.current?.id ? " active" : "") + (session.is_pinned ? " pinned" : "");
  button.dataset.id = session.id;
  const title = document.createElement("span");
  title.className = "title";
  title.textContent = session.title + (session.is_archived ? " (archived)" : "");
  button.append(title, detail);
  decorate(button, session);
  button.addEventListener("click", () => (isSelecting() ? toggle(session.id, renderSessionList) : openSession(session.id, hit)));
  return button;
}

function renderSessionList() {
  const list = $("session-list");
  list.replaceChildren();
  const pinned = state.sessions.filter((s) => s.is_pinned);
  const others = state.sessions.filter((s) => !s.is_pinned);
  for (const [label, group] of [["Pinned", pinned], ["Recent", others]]) {
    if (group.length === 0) continue;
    const heading = document.createElement("div");
    heading.className = "group-label";
    heading.textContent = label;
    list.append(heading);
    for (const session of group) {
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = relativeTime(session.updated_at);
      list.append(sessionButton(session, meta));
    }
  }
  if (state.sessions.length === 0) {
    const empty = document.createElement("p");
    empty.className = "muted group-label";
    empty.textContent = "No chats yet";
    list.append(empty);
  }
}

async function runSearch() {
  const query = $("search").value.trim();
  if (query === "") { renderSessionList(); return; }
  try {
    const scope = $("search-scope").value;
    const { hits } = await getJSON(`/api/sessions/search?q=${encodeURIComponent(query)}&scope=${scope}`);
    const list = $("session-list");
    list.replaceChildren();
    const heading = document.createElement("div");
    heading.className = "group-label";
    heading.textContent = hits.length ? `${hits.length} found` : "Nothing found";
    list.append(heading);
    for (const hit of hits) {
      const at = hit.message_id ? { messageID: hit.message_id, query } : undefined;
      list.append(sessionButton(hit.session, snippetNode(hit.snippet), at));
    }
  } catch (error) {
    showError(error.message);
  }
}

// ---- Conversation view ----------------------------------------------------------------------------

function showSessionHeader(session) {
  $("session-title").textContent = session ? session.title : "New chat";
  $("session-title").title = session ? session.title : "";
  $("session-actions").hidden = !session;
  // A new chat may be started with a persona; a chat keeps the one it was started with.
  const picker = $("persona-picker");
  picker.hidden = Boolean(session) || picker.options.length < 2;
  $("template-picker").hidden = Boolean(session) || $("template-picker").options.length < 2;
  // A chat started from a template is answered by the instructions it was started with.
  const chip = $("persona-chip");
  chip.hidden = !session || !(state.persona || state.instructions);
  chip.textContent = state.persona ? `as ${state.persona.name}` : state.instructions ? "own instructions" : "";
  chip.title = state.persona ? "This chat is answered by a persona of yours"
    : state.instructions ? `This chat is answered by the instructions it was started with: ${state.instructions}` : "";
  const speaker = session ? state.persona?.name : picker.selectedOptions[0]?.value && picker.selectedOptions[0].textContent;
  $("prompt").placeholder = `Message ${speaker || "Hearth"}`;
  if (!session) return;
  $("memory-toggle").textContent = state.usesMemory === false ? "Memory off" : "Memory on";
  $("memory-toggle").classList.toggle("on", state.usesMemory !== false);
  $("pin").textContent = session.is_pinned ? "Unpin" : "Pin";
  $("pin").classList.toggle("on", session.is_pinned);
  $("archive").textContent = session.is_archived ? "Unarchive" : "Archive";
  document.title = `${session.title} · Hearth`;
}

/// Opens a chat; `hit` (a search hit's message and query) opens it at that message, highlighted.
async function openSession(id, hit) {
  try {
    if (!mayLeaveSettings("chat")) { history.replaceState(null, "", "#/settings"); return; }
    const detail = await getJSON(`/api/sessions/${id}`);
    restoreDraft(detail.session.id);
    if (location.hash !== `#/s/${id}`) history.replaceState(null, "", `#/s/${id}`);
    showView("chat");
    closeFind();
    await showDetail(detail);
    if (hit) {
      showHit($("messages"), hit.messageID, hit.query);
    } else {
      // A chat opens where it left off: at its latest message, ready for the next one.
      $("messages").scrollTop = $("messages").scrollHeight;
      $("prompt").focus({ preventScroll: true });
    }
    renderSessionListActive();
    closeDrawer();
  } catch (error) {
    showError(error.message);
  }
}

/// Shows a chat as the server sent it: messages, versions, sources and action cards, and its live answer.
async function showDetail({ session, messages, forks, uses_memory: usesMemory, citations, persona, instructions }) {
  state.current = session;
  state.usesMemory = usesMemory;
  state.persona = persona ?? null;
  state.instructions = instructions ?? null;
  showSessionHeader(session);
  renderConversation(session, messages, forks);
  attachLiveTurn(session.id);
  // What another tab asks in this chat, or an answer still being written, shows here as it comes.
  watchChat(session.id);
  setGenerating();
  for (const [messageID, cited] of Object.entries(citations ?? {})) {
    const element = $("messages").querySelector(`[data-id="${messageID}"]`);
    if (element) showSources(element, cited);
  }
  await loadCards(session.id, $("messages")).catch((error) => showError(error.message));
}

/// A chat that is answering shows the live answer, not the copy saved a moment ago.
function attachLiveTurn(sessionID) {
  const turn = state.turns.get(sessionID);
  if (!turn) return;
  const list = $("messages");
  list.querySelector(".empty-state")?.remove();
  for (const element of [turn.user, turn.answer]) {
    const saved = list.querySelector(`[data-id="${element.dataset.id}"]`);
    if (saved && saved !== element) saved.replaceWith(element);
    else if (!saved) list.append(element);
  }
  list.scrollTop = list.scrollHeight;
}

function renderSessionListActive() {
  document.querySelectorAll(".session-item").forEach((item) => item.classList.toggle("active", item.dataset.id === state.current?.id));
}

/// An empty chat, answered by Hearth or by the persona `persona` (its id) names.
function newChat(persona = "") {
  if (!mayLeaveSettings("chat")) { history.replaceState(null, "", "#/settings"); return; }
  state.current = null;
  state.usesMemory = true;
  state.persona = null;
  state.instructions = null;
  // Kept at once, so a message sent before the picker is filled still goes to the persona chosen.
  state.newPersona = persona;
  state.newTemplate = "";
  state.templateText = "";
  fillPersonaPicker($("persona-picker"), persona)
    .then(() => { if (!state.current) showSessionHeader(null); })
    .catch(() => {});
  fillTemplatePicker($("template-picker"))
    .then(() => { if (!state.current) showSessionHeader(null); })
    .catch(() => {});
  watchChat(null);
  restoreDraft();
  history.replaceState(null, "", "#/");
  document.title = "Hearth";
  showView("chat");
  closeFind();
  showSessionHeader(null);
  renderConversation(null, []);
  setGenerating();
  renderSessionListActive();
  closeDrawer();
  $("prompt").focus();
}

// ---- The composer --------------------------------------------------------------------------------

function autosize() {
  const prompt = $("prompt");
  prompt.style.height = "auto";
  prompt.style.height = `${Math.min(prompt.scrollHeight + 2, 220)}px`;
  prompt.style.overflowY = prompt.scrollHeight > 220 ? "auto" : "hidden";
}

// What is typed is kept per chat across reloads until it is sent.
const draftKey = (sessionID) => `hearth.draft.${sessionID ?? "new"}`;

function saveDraft() {
  const text = $("prompt").value;
  if (text.trim()) localStorage.setItem(draftKey(state.current?.id), text);
  else localStorage.removeItem(draftKey(state.current?.id));
}

function restoreDraft(sessionID = state.current?.id) {
  $("prompt").value = localStorage.getItem(draftKey(sessionID)) ?? "";
  autosize();
}

/// A chat's title until the server has named it: its first line, shortened.
function provisionalTitle(text) {
  const line = text.split("\n")[0].trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

// ---- Turns ----------------------------------------------------------------------------------------

/// The chat a message goes to: the one on screen, or a new one named after the message.
async function ensureSession(text) {
  if (state.current) return state.current;
  const persona = state.newPersona;
  const template = state.newTemplate;
  const response = await api("/api/sessions", { method: "POST", json: persona ? { persona } : template ? { template } : {} });
  state.current = await response.json();
  state.persona = state.current.persona ?? null;
  state.instructions = state.current.instructions ?? null;
  localStorage.removeItem(draftKey(null));
  history.replaceState(null, "", `#/s/${state.current.id}`);
  showSessionHeader({ ...state.current, title: provisionalTitle(text) });
  loadSessions().then(renderSessionListActive).catch(() => {});
  return state.current;
}

/// A message the server never took goes back into the box, with a way to send it again.
function putBack(session, text, error) {
  if (state.current?.id === session.id && !$("prompt").value.trim()) {
    $("prompt").value = text;
    autosize();
    saveDraft();
  }
  showError(error.message, { retry: () => $("composer").requestSubmit(), unreachable: error.unreachable });
}

/// A regenerate or an edit the server refused: the chat as the server has it, and why.
async function reopen(session, error) {
  showError(error.message, { unreachable: error.unreachable });
  if (state.current?.id === session.id) await openSession(session.id).catch(() => {});
}

async function turnEnded(sessionID, after) {
  await loadSessions().catch(() => {});
  if (state.current?.id !== sessionID) return;
  state.current = after.session ?? state.sessions.find((s) => s.id === sessionID) ?? state.current;
  showSessionHeader(state.current);
  renderSessionListActive();
  await refreshForks(sessionID, after.forks).catch(() => {});
}

// ---- Session actions ----------------------------------------------------------------------------

async function patchSession(change) {
  const response = await api(`/api/sessions/${state.current.id}`, { method: "PATCH", json: change });
  state.current = await response.json();
  showSessionHeader(state.current);
  await loadSessions();
}

function startRename() {
  const heading = $("session-title");
  const input = document.createElement("input");
  input.id = "rename-input";
  input.value = state.current.title;
  input.setAttribute("aria-label", "Chat title");
  heading.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = async (save) => {
    if (done) return;
    done = true;
    const title = input.value.trim();
    if (save && title && title !== state.current.title) {
      try { await patchSession({ title }); } catch (error) { showError(error.message); }
    }
    showSessionHeader(state.current);
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); finish(true); }
    if (event.key === "Escape") { event.preventDefault(); finish(false); }
  });
  input.addEventListener("blur", () => finish(true));
}

async function exportMarkdown(event) {
  event.preventDefault();
  try {
    const response = await api(`/api/sessions/${state.current.id}/export?format=md`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `${state.current.title.replace(/[^\w-]+/g, "-").slice(0, 60) || "hearth-session"}.md`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (error) {
    showError(error.message);
  }
}

async function deleteSession() {
  if (!(await askFirst(`Delete “${state.current.title}”? This cannot be undone.`))) return;
  try {
    await api(`/api/sessions/${state.current.id}`, { method: "DELETE" });
    await loadSessions();
    newChat();
  } catch (error) {
    showError(error.message);
  }
}

// ---- Other views ----------------------------------------------------------------------------------

/// The views that are not pages of data, each with its own address too.
const fixedViews = ["settings", "models", "diagnostics"];

function showView(name) {
  if (!mayLeaveSettings(name)) return false;
  // A page of its own is a step in the history, so Back returns to the page before.
  if ((fixedViews.includes(name) || pages[name]) && location.hash !== `#/${name}` && !location.hash.startsWith(`#/${name}/`)) {
    history.pushState(null, "", `#/${name}`);
  }
  window.dispatchEvent(new CustomEvent("hearth:view", { detail: name }));
  document.querySelector(".skip-link").textContent = name === "chat" ? "Skip to the message box" : "Skip to the page";
  for (const view of ["chat", "settings", "models", "diagnostics", ...Object.keys(pages)]) $(`view-${view}`).hidden = view !== name;
  document.querySelectorAll(".nav-link[data-view]").forEach((link) => link.classList.toggle("active", link.dataset.view === name));
  if (name !== "chat") {
    $("session-title").textContent = name[0].toUpperCase() + name.slice(1);
    $("session-actions").hidden = true;
  }
  if (name === "settings") {
    fillSettings(); loadRemote(); loadWebSearch(); loadTemplates().catch((error) => showError(error.message));
    loadDevices().catch(() => {});
  }
  if (name === "models") { loadModels(); loadRuntime(); loadPulls(); loadProjector(); }
  if (name === "diagnostics") loadDiagnostics();
  if (pages[name]) {
    drawPage(pages[name]);
  }
  closeDrawer();
  return true;
}

// ---- Theme, keyboard, wiring --------------------------------------------------------------------

function applyTheme(theme) {
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  $("theme-toggle").textContent = `Theme: ${theme ?? "system"}`;
}

function cycleTheme() {
  const order = ["system", "dark", "light"];
  const current = localStorage.getItem("hearth.theme") ?? "system";
  const next = order[(order.indexOf(current) + 1) % order.length];
  localStorage.setItem("hearth.theme", next);
  applyTheme(next);
}

/// The room the composer and its hints take at the bottom of the window, as `--composer-space`: it grows with
/// what is typed and wraps on a phone, and is none on a page without it.
function keepNoticesAboveComposer() {
  const measure = () => {
    const composer = $("composer");
    const space = $("view-chat").hidden ? 0 : Math.max(0, window.innerHeight - composer.getBoundingClientRect().top);
    document.documentElement.style.setProperty("--composer-space", `${Math.ceil(space)}px`);
  };
  new ResizeObserver(measure).observe($("composer"));
  new ResizeObserver(measure).observe($("view-chat"));
  window.addEventListener("resize", measure);
  measure();
}

function wire() {
  keepNoticesAboveComposer();
  wireTurns({ ensureSession, putBack, reopen, show: showDetail, turnEnded });
  wireLive({ show: showDetail, turnEnded });
  wireAttachments(ensureSession);
  wirePages();
  wireDiagnostics();
  wireRuntime();
  wirePulls(() => loadModels());
  wireRemote();
  wireWebSearch();
  wireTemplates();
  wireProjector();
  setUpVoice();
  setUpHandsFree();
  // The skip link goes past the navigation to what the page is for: the message box in a chat, the page's
  // own content elsewhere; the address stays (a new one would open another page).
  document.querySelector(".skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    const page = document.querySelector(".main > .view:not([hidden]):not(#view-chat)");
    if (!page) { $("prompt").focus(); return; }
    page.tabIndex = -1;
    page.focus();
  });
  $("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("prompt").value.trim();
    if (!text) return;
    if (currentTurn()) { toast("This chat is still answering: wait for it, or stop it with Esc."); return; }
    $("prompt").value = "";
    autosize();
    saveDraft();
    send(text).catch((error) => {
      // The session could not even be made: the text goes back.
      if (!$("prompt").value.trim()) { $("prompt").value = text; autosize(); saveDraft(); }
      showError(error.message, { retry: () => $("composer").requestSubmit(), unreachable: error.unreachable });
    });
  });
  $("prompt").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $("composer").requestSubmit();
    }
  });
  $("prompt").addEventListener("input", () => { autosize(); saveDraft(); });
  $("stop").addEventListener("click", stop);
  $("new-chat").addEventListener("click", () => newChat());
  // A new chat is answered by a persona or by a template's instructions: choosing one clears the other.
  $("persona-picker").addEventListener("change", () => {
    state.newPersona = $("persona-picker").value;
    if (state.newPersona) { state.newTemplate = ""; $("template-picker").value = ""; }
    showSessionHeader(null);
  });
  $("template-picker").addEventListener("change", () => {
    state.newTemplate = $("template-picker").value;
    const template = templateNamed(state.newTemplate);
    if (template) { state.newPersona = ""; $("persona-picker").value = ""; }
    // The box takes the template's first message only when it is empty or holds the last template's: what the
    // user wrote stays.
    const box = $("prompt");
    if (box.value.trim() === "" || box.value === state.templateText) {
      box.value = template?.first_message ?? "";
      state.templateText = box.value;
      autosize();
      saveDraft();
    }
    $("prompt").focus();
    showSessionHeader(null);
  });
  $("search").addEventListener("input", () => { clearTimeout(state.searchTimer); state.searchTimer = setTimeout(runSearch, 200); });
  $("search-scope").addEventListener("change", runSearch);
  wireResultKeys($("search"), $("session-list"));
  $("show-archived").addEventListener("change", () => loadSessions().catch((error) => showError(error.message)));
  wireSelection({
    reload: () => loadSessions().catch((error) => showError(error.message)),
    left: (ids) => { if (state.current && ids.has(state.current.id)) newChat(); },
    redraw: renderSessionList,
    archived: (id) => state.sessions.some((session) => session.id === id && session.is_archived),
  });
  $("rename").addEventListener("click", startRename);
  $("pin").addEventListener("click", () => patchSession({ pinned: !state.current.is_pinned }).catch((error) => showError(error.message)));
  $("archive").addEventListener("click", () => patchSession({ archived: !state.current.is_archived }).catch((error) => showError(error.message)));
  $("memory-toggle").addEventListener("click", attempt(async () => {
    const { enabled } = await sendJSON(`/api/sessions/${state.current.id}/memory`, "PUT", { enabled: state.usesMemory === false });
    state.usesMemory = enabled;
    showSessionHeader(state.current);
    toast(enabled ? "This chat's answers may draw on your memory." : "This chat's answers no longer draw on your memory.");
  }));
  $("export-md").addEventListener("click", exportMarkdown);
  $("delete").addEventListener("click", deleteSession);
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  wireDrawer();
  $("theme-toggle").addEventListener("click", () => { cycleTheme(); closeDrawer(); });
  document.querySelectorAll(".nav-link[data-view]").forEach((link) => link.addEventListener("click", () => showView(link.dataset.view)));
  wireSettings();
  wireFind();
  $("shortcuts").addEventListener("click", () => $("shortcuts-dialog").showModal());
  document.addEventListener("keydown", (event) => {
    const mod = event.ctrlKey || event.metaKey;
    const typing = event.target.closest?.("input, textarea, select, [contenteditable]");
    if (!typing && !mod && event.key === "/") { event.preventDefault(); $("prompt").focus(); }
    else if (!typing && !mod && event.key === "?") { event.preventDefault(); $("shortcuts-dialog").showModal(); }
    else if (event.key === "Escape" && currentTurn()) { event.preventDefault(); stop(); }
    else if (mod && event.key.toLowerCase() === "k") { event.preventDefault(); $("search").focus(); }
    else if (mod && event.key.toLowerCase() === "f" && !$("view-chat").hidden) { event.preventDefault(); openFind(); }
    else if (mod && event.shiftKey && event.key.toLowerCase() === "o") { event.preventDefault(); newChat(); }
  });
}

/// Opens what the address names: a chat (`#/s/ID`), a page (`#/calendar`), one item on a page (`#/notes/ID`,
/// where a citation leads), or a new chat.
async function route() {
  const match = location.hash.match(/^#\/s\/([0-9a-fA-F-]{36})$/);
  const withPersona = location.hash.match(/^#\/new\/([0-9a-fA-F-]{36})$/);
  const page = location.hash.match(/^#\/([a-z]+)$/);
  const item = location.hash.match(/^#\/(notes|memory)\/(.+)$/);
  if (match) {
    if (state.current?.id !== match[1] || $("view-chat").hidden) await openSession(match[1]);
  } else if (withPersona) {
    newChat(withPersona[1]);
  } else if (item) {
    try {
      focus[item[1]] = decodeURIComponent(item[2]);
    } catch {
      // Not an address a link of the app writes: the page alone.
    }
    if (!showView(item[1])) delete focus[item[1]];
  } else if (page && (pages[page[1]] || fixedViews.includes(page[1]))) {
    if ($(`view-${page[1]}`).hidden) showView(page[1]);
  } else if (location.hash !== "#/" || !state.current) {
    newChat();
  }
}

async function start() {
  applyTheme(localStorage.getItem("hearth.theme") ?? "system");
  wire();
  // Wired before the first awaits, so that "Pair a device" answers a click as soon as the page shows it.
  wireDevices().catch(() => {});
  try {
    await Promise.all([loadSessions(), loadSettings()]);
    showModelName().catch(() => {});
    document.addEventListener("hearth:model-changed", () => showModelName().catch(() => {}));
    await route();
    watchWaiting();
    watchNotices();
    wireMCPSettings().catch(() => {});
    wireToolServers().catch(() => {});
    wireBackups().catch(() => {});
    // Without a service worker (a plain-HTTP page) the Notifications part still says why it cannot work.
    registerWorker().catch(() => null).then(() => wirePush()).catch(() => {});
    wirePrompts().catch(() => {});
    wireHistoryImport(() => loadSessions());
    window.addEventListener("hashchange", () => route().catch((error) => showError(error.message)));
  } catch (error) {
    showError(error.message);
  }
}

start();
