import { renderMarkdown } from "/assets/markdown.js";
import { $, api, attempt, copyText, el, getJSON, sendJSON, showError, toast } from "/assets/api.js";
import { pages, wirePages } from "/assets/pages.js";
import { loadCards, showCards, withoutBlocks } from "/assets/actions.js";
import { loadDiagnostics, wireDiagnostics } from "/assets/diagnostics.js";
import { loadRuntime, wireRuntime } from "/assets/runtime.js";
import { refresh as loadPulls, wirePulls } from "/assets/pulls.js";
import { loadRemote, wireRemote } from "/assets/remote.js";
import { readAloudButton, setUpVoice } from "/assets/voice.js";
import { closeDrawer, wireDrawer } from "/assets/drawer.js";
import { showHit, snippetNode, wireResultKeys } from "/assets/search.js";

// `turns`: the answers running now, by session: each chat answers on its own, and a message sent in one
// while another answers waits in the server's line.
const state = { sessions: [], current: null, turns: new Map(), settings: null, searchTimer: null };
const currentTurn = () => state.turns.get(state.current?.id);
const PRESETS = {
  precise: { temperature: 0, top_k: 40, top_p: 0.95, min_p: 0.05, repeat_penalty: 1 },
  balanced: { temperature: 0.7, top_k: 40, top_p: 0.9, min_p: 0.05, repeat_penalty: 1.1 },
  creative: { temperature: 1.0, top_k: 80, top_p: 0.95, min_p: 0.02, repeat_penalty: 1.1 },
};

// ---- Sessions drawer ------------------------------------------------------------------------------

async function loadSessions() {
  const archived = $("show-archived").checked;
  const { sessions } = await getJSON(`/api/sessions${archived ? "?archived=true" : ""}`);
  state.sessions = sessions;
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
  button.addEventListener("click", () => openSession(session.id, hit));
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

function messageElement(message) {
  const wrapper = document.createElement("article");
  wrapper.className = `message ${message.role}`;
  wrapper.dataset.id = message.id;
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

function fillMessage(element, message) {
  const bubble = element.querySelector(".bubble");
  if (message.role === "user") {
    bubble.textContent = message.content;
  } else {
    bubble.replaceChildren(renderMarkdown(withoutBlocks(message.content)));
  }
  const thinking = element.querySelector(".thinking");
  const showThinking = state.settings?.show_thinking !== false;
  thinking.hidden = !showThinking || !message.thinking;
  element.querySelector(".thinking-text").textContent = message.thinking || "";
  bubble.classList.toggle("cursor", message.state === "generating");
  element.querySelectorAll(".stats, .notice").forEach((node) => node.remove());
  const notice = noticeFor(message);
  if (notice) {
    const line = document.createElement("div");
    line.className = "notice";
    line.textContent = notice;
    element.append(line);
  }
  if (message.role === "assistant" && message.state !== "generating" && message.generated_tokens) {
    const stats = document.createElement("div");
    stats.className = "stats";
    const parts = [];
    if (message.provider) parts.push(message.provider === "remote" ? "remote model" : "on this machine");
    parts.push(`${message.generated_tokens} tokens`);
    if (message.generation_tokens_per_second) parts.push(`${message.generation_tokens_per_second.toFixed(1)} tokens/s`);
    if (message.time_to_first_token_ms != null) parts.push(`first token ${Math.round(message.time_to_first_token_ms)} ms`);
    stats.textContent = parts.join(" · ");
    element.append(stats);
  }
  element.querySelector(".answer-actions")?.remove();
  if (message.role === "assistant" && message.state !== "generating" && message.content.trim()) {
    element.append(answerActions(withoutBlocks(message.content)));
  }
}

/// What can be done with a finished answer: copy it whole, have it read aloud.
function answerActions(text) {
  const row = el("div", { class: "answer-actions" });
  const copy = el("button", { class: "link-button copy-answer", type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    const copied = await copyText(text);
    copy.textContent = copied ? "Copied" : "Copying is blocked here: select the text";
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  });
  row.append(copy);
  const reader = readAloudButton(text);
  if (reader) row.append(reader);
  return row;
}

function noticeFor(message) {
  switch (message.state) {
    case "cancelled": return "Stopped.";
    case "timed_out": return "Stopped: the time limit was reached; the partial answer was kept.";
    case "interrupted": return "Interrupted.";
    case "failed": return `Failed: ${message.error ?? "unknown error"}`;
    default:
      if (message.stop_reason === "max_tokens") return "The answer reached its length limit.";
      if (message.stop_reason === "context_full") return "The conversation filled the model's context.";
      return null;
  }
}

function renderConversation(session, messages) {
  const list = $("messages");
  list.replaceChildren();
  if (!session || messages.length === 0) list.append(emptyState());
  for (const message of messages) list.append(messageElement(message));
  list.scrollTop = list.scrollHeight;
}

function emptyState() {
  const element = document.createElement("div");
  element.className = "empty-state";
  const title = document.createElement("h2");
  title.textContent = "What can I help with?";
  const text = document.createElement("p");
  text.textContent = "Everything runs on this machine. Your chats stay in your own database.";
  element.append(title, text);
  return element;
}

/// The sources an answer drew on, numbered as it cites them, each linking to where it lives.
function showSources(element, citations) {
  element.querySelector(".sources")?.remove();
  if (!citations?.length) return;
  const line = el("div", { class: "sources" }, "Sources: ");
  citations.forEach((citation, index) => {
    const place = citation.heading && citation.heading !== citation.title ? ` › ${citation.heading}` : "";
    const href = citation.collection === "conversations" ? `#/s/${citation.location}`
      : citation.collection === "notes" ? "#/notes" : "#/memory";
    if (index > 0) line.append(" · ");
    line.append(el("a", { href, title: citation.collection === "documents" ? `${citation.location}, bytes ${citation.start}–${citation.end}` : citation.collection },
      `[${citation.number}] ${citation.title}${place}`));
  });
  element.append(line);
}

function showSessionHeader(session) {
  $("session-title").textContent = session ? session.title : "New chat";
  $("session-title").title = session ? session.title : "";
  $("session-actions").hidden = !session;
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
    const { session, messages, usesMemory, citations } = await getJSON(`/api/sessions/${id}`);
    state.current = session;
    state.usesMemory = usesMemory;
    restoreDraft();
    if (location.hash !== `#/s/${id}`) history.replaceState(null, "", `#/s/${id}`);
    showView("chat");
    showSessionHeader(session);
    renderConversation(session, messages);
    attachLiveTurn(session.id);
    setGenerating();
    for (const [messageID, cited] of Object.entries(citations ?? {})) {
      const element = $("messages").querySelector(`[data-id="${messageID}"]`);
      if (element) showSources(element, cited);
    }
    await loadCards(session.id, $("messages")).catch((error) => showError(error.message));
    if (hit) showHit($("messages"), hit.messageID, hit.query);
    renderSessionListActive();
    closeDrawer();
  } catch (error) {
    showError(error.message);
  }
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

function newChat() {
  if (!mayLeaveSettings("chat")) { history.replaceState(null, "", "#/settings"); return; }
  state.current = null;
  state.usesMemory = true;
  restoreDraft();
  history.replaceState(null, "", "#/");
  document.title = "Hearth";
  showView("chat");
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

function restoreDraft() {
  $("prompt").value = localStorage.getItem(draftKey(state.current?.id)) ?? "";
  autosize();
}

/// A chat's title until the server has named it: its first line, shortened.
function provisionalTitle(text) {
  const line = text.split("\n")[0].trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

// ---- A turn ---------------------------------------------------------------------------------------

async function* serverEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let boundary;
    while ((boundary = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) yield { name, data: JSON.parse(data.join("\n")) };
    }
  }
}

/// Send or Stop, for the chat on screen.
function setGenerating() {
  const generating = Boolean(currentTurn());
  $("send").hidden = generating;
  $("stop").hidden = !generating;
}

async function send(text) {
  $("banner").hidden = true;
  if (!state.current) {
    const response = await api("/api/sessions", { method: "POST", json: {} });
    state.current = await response.json();
    localStorage.removeItem(draftKey(null));
    history.replaceState(null, "", `#/s/${state.current.id}`);
    showSessionHeader({ ...state.current, title: provisionalTitle(text) });
    loadSessions().then(renderSessionListActive).catch(() => {});
  }
  const session = state.current;
  const list = $("messages");
  list.querySelector(".empty-state")?.remove();
  const pendingUser = messageElement({ id: "pending", role: "user", content: text, state: "complete" });
  const pendingAnswer = messageElement({ id: "pending-answer", role: "assistant", content: "", state: "generating" });
  const queued = document.createElement("div");
  queued.className = "queued";
  queued.hidden = true;
  pendingAnswer.append(queued);
  list.append(pendingUser, pendingAnswer);
  list.scrollTop = list.scrollHeight;

  const controller = new AbortController();
  const turn = { session: session.id, controller, started: false, user: pendingUser, answer: pendingAnswer };
  state.turns.set(session.id, turn);
  setGenerating();
  let answer = { role: "assistant", content: "", thinking: "", state: "generating" };
  let frame = null;
  const redraw = () => {
    frame = null;
    const shown = pendingAnswer.isConnected;
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    fillMessage(pendingAnswer, answer);
    if (answer.sources) showSources(pendingAnswer, answer.sources);
    if (shown && nearBottom) list.scrollTop = list.scrollHeight;
  };
  try {
    const response = await api(`/api/sessions/${session.id}/turns`, { method: "POST", json: { text }, signal: controller.signal });
    for await (const event of serverEvents(response)) {
      switch (event.name) {
        case "queued":
          queued.hidden = false;
          queued.textContent = `Waiting for the model: ${event.data.position} ahead of you`;
          break;
        case "loading":
          // Stays until the first words: the load itself happens after the turn has started.
          queued.hidden = false;
          queued.dataset.loading = "true";
          queued.textContent = `Loading the model (${event.data.model})…`;
          break;
        case "started":
          turn.started = true;
          if (!queued.dataset.loading) queued.remove();
          // The chat may have been opened again since this was sent, showing the saved copies of these two
          // messages beside the live ones: the live ones stay.
          for (const [element, id] of [[pendingUser, event.data.user.id], [pendingAnswer, event.data.assistant.id]]) {
            const saved = list.querySelector(`[data-id="${id}"]`);
            if (saved && saved !== element) saved.remove();
            element.dataset.id = id;
          }
          break;
        case "trimmed":
          toast(`Conversation trimmed: ${event.data.dropped_messages} earlier messages are summarised.`);
          break;
        case "thinking":
          queued.hidden = true;
          answer.thinking += event.data.text;
          frame ??= requestAnimationFrame(redraw);
          break;
        case "answer":
          queued.hidden = true;
          answer.content += event.data.text;
          frame ??= requestAnimationFrame(redraw);
          break;
        case "actions":
          showCards(pendingAnswer, event.data.actions);
          break;
        case "sources":
          answer.sources = event.data.sources;
          break;
        case "done":
          answer = { ...event.data.message, sources: answer.sources };
          if (answer.state === "failed") showError(`The answer failed: ${answer.error ?? "unknown error"}`);
          redraw();
          break;
        case "error":
          showError(event.data.message);
          break;
      }
    }
  } catch (error) {
    const started = turn.started;
    if (error.name === "AbortError") {
      if (answer.state === "generating") { answer.state = "cancelled"; redraw(); }
    } else if (!started) {
      // Never sent: the message goes back into the box, to send again as it is.
      pendingUser.remove();
      pendingAnswer.remove();
      if (state.current?.id === session.id && !$("prompt").value.trim()) {
        $("prompt").value = text;
        autosize();
        saveDraft();
      }
      showError(error.message, { retry: () => $("composer").requestSubmit(), unreachable: error.unreachable });
    } else {
      // A stream cut off mid-answer is the browser's TypeError ("network error"): said in words instead.
      const lost = error.unreachable || error instanceof TypeError;
      answer.state = "failed";
      answer.error = lost ? "the connection to Hearth was lost; what the server finished is there after a reload" : error.message;
      redraw();
      showError(lost ? "The connection to Hearth was lost during the answer. Is `hearth serve` still running?" : error.message,
        { unreachable: lost });
    }
  } finally {
    queued.remove();
    state.turns.delete(session.id);
    setGenerating();
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused.id === "stop") $("prompt").focus();
    await loadSessions().catch(() => {});
    if (state.current?.id === session.id) {
      state.current = state.sessions.find((s) => s.id === session.id) ?? state.current;
      showSessionHeader(state.current);
      renderSessionListActive();
    }
  }
}

async function stop() {
  const turn = currentTurn();
  if (!turn) return;
  if (!turn.started) { turn.controller.abort(); return; }
  try {
    await api(`/api/sessions/${turn.session}/stop`, { method: "POST" });
  } catch (error) {
    turn.controller.abort();
  }
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
  if (!window.confirm(`Delete “${state.current.title}”? This cannot be undone.`)) return;
  try {
    await api(`/api/sessions/${state.current.id}`, { method: "DELETE" });
    await loadSessions();
    newChat();
  } catch (error) {
    showError(error.message);
  }
}

// ---- Other views ----------------------------------------------------------------------------------

/// Whether the page may leave the settings: with unsaved changes, only when the user says so.
function mayLeaveSettings(next) {
  if (next === "settings" || $("view-settings").hidden || !state.settingsDirty) return true;
  if (!window.confirm("Your settings have unsaved changes. Leave without saving them?")) return false;
  state.settingsDirty = false;
  return true;
}

function showView(name) {
  if (!mayLeaveSettings(name)) return false;
  for (const view of ["chat", "settings", "models", "diagnostics", ...Object.keys(pages)]) $(`view-${view}`).hidden = view !== name;
  document.querySelectorAll(".nav-link[data-view]").forEach((link) => link.classList.toggle("active", link.dataset.view === name));
  if (name !== "chat") {
    $("session-title").textContent = name[0].toUpperCase() + name.slice(1);
    $("session-actions").hidden = true;
  }
  if (name === "settings") { fillSettings(); loadRemote(); }
  if (name === "models") { loadModels(); loadRuntime(); loadPulls(); }
  if (name === "diagnostics") loadDiagnostics();
  if (pages[name]) {
    history.replaceState(null, "", `#/${name}`);
    pages[name]().catch((error) => showError(error.message));
  }
  closeDrawer();
  return true;
}

async function loadSettings() {
  state.settings = await getJSON("/api/settings");
}

function fillSettings() {
  const form = $("settings-form");
  const settings = state.settings;
  if (!settings) return;
  state.settingsDirty = false;
  $("settings-status").textContent = "";
  form.preset.value = settings.preset;
  for (const name of ["temperature", "top_k", "top_p", "min_p", "repeat_penalty", "max_tokens"]) form[name].value = settings[name];
  form.system_prompt.value = settings.system_prompt ?? "";
  form.show_thinking.checked = settings.show_thinking;
  $("settings-status").textContent = "";
}

async function saveSettings(event) {
  event.preventDefault();
  const form = $("settings-form");
  const number = (name) => Number(form[name].value);
  const settings = {
    preset: form.preset.value,
    temperature: number("temperature"), top_k: number("top_k"), top_p: number("top_p"), min_p: number("min_p"),
    repeat_penalty: number("repeat_penalty"), max_tokens: number("max_tokens"),
    system_prompt: form.system_prompt.value.trim() === "" ? null : form.system_prompt.value,
    show_thinking: form.show_thinking.checked,
  };
  try {
    const response = await api("/api/settings", { method: "PUT", json: settings });
    state.settings = await response.json();
    state.settingsDirty = false;
    $("settings-status").textContent = "Saved.";
  } catch (error) {
    $("settings-status").textContent = "";
    showError(error.message);
  }
}

function fact(list, label, value) {
  const term = document.createElement("dt");
  term.textContent = label;
  const detail = document.createElement("dd");
  detail.textContent = value ?? "–";
  list.append(term, detail);
}

const size = (bytes) => bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(1)} GiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`;

async function loadModels() {
  try {
    const view = await getJSON("/api/models");
    const container = $("models");
    container.replaceChildren();
    if (view.models.length === 0) container.textContent = "No models installed.";
    for (const model of view.models) {
      const card = document.createElement("div");
      card.className = "model-card";
      const title = document.createElement("h3");
      title.textContent = model.name ?? model.id;
      for (const [flag, label] of [[model.id === view.active, "chosen"], [model.id === view.loaded, "loaded"]]) {
        if (flag) title.append(el("span", { class: "badge" }, label));
      }
      const facts = document.createElement("dl");
      facts.className = "facts";
      fact(facts, "File", model.id);
      fact(facts, "Size", size(model.file_size));
      fact(facts, "Architecture", model.architecture);
      fact(facts, "Parameters", model.parameter_count ? `${(model.parameter_count / 1e6).toFixed(0)} M` : null);
      fact(facts, "Quantisation", model.file_type);
      fact(facts, "Trained context", model.context_length);
      if (model.id === view.loaded) fact(facts, "Context in use", view.context_size);
      fact(facts, "Chat template", model.has_chat_template ? "yes" : "no");
      if (model.problem) fact(facts, "Problem", model.problem);
      card.append(title, facts);
      if (view.choosable.includes(model.id) && model.id !== view.active) {
        const status = el("span", { class: "muted", role: "status" });
        const use = el("button", { type: "button", class: "use-model" }, "Answer with this model");
        use.addEventListener("click", async () => {
          use.disabled = true;
          status.textContent = "Waiting for running answers, then loading…";
          try {
            await sendJSON("/api/models/active", "PUT", { model: model.id });
            await loadModels();
          } catch (error) {
            use.disabled = false;
            status.textContent = "";
            showError(error.message);
          }
        });
        card.append(el("p", { class: "row" }, use, status));
      }
      container.append(card);
    }
  } catch (error) {
    showError(error.message);
  }
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

function wire() {
  wirePages();
  wireDiagnostics();
  wireRuntime();
  wirePulls(() => loadModels());
  wireRemote();
  setUpVoice();
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
  $("new-chat").addEventListener("click", newChat);
  $("search").addEventListener("input", () => { clearTimeout(state.searchTimer); state.searchTimer = setTimeout(runSearch, 200); });
  $("search-scope").addEventListener("change", runSearch);
  wireResultKeys($("search"), $("session-list"));
  $("show-archived").addEventListener("change", () => loadSessions().catch((error) => showError(error.message)));
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
  $("settings-form").addEventListener("submit", saveSettings);
  $("settings-form").addEventListener("input", () => {
    state.settingsDirty = true;
    $("settings-status").textContent = "Unsaved changes.";
  });
  window.addEventListener("beforeunload", (event) => { if (state.settingsDirty) event.preventDefault(); });
  $("settings-form").addEventListener("change", (event) => {
    const form = $("settings-form");
    if (event.target.name === "preset" && PRESETS[form.preset.value]) {
      for (const [name, value] of Object.entries(PRESETS[form.preset.value])) form[name].value = value;
    } else if (event.target.name in PRESETS.balanced) {
      form.preset.value = "custom";
    }
  });
  $("shortcuts").addEventListener("click", () => $("shortcuts-dialog").showModal());
  document.addEventListener("keydown", (event) => {
    const mod = event.ctrlKey || event.metaKey;
    const typing = event.target.closest?.("input, textarea, select, [contenteditable]");
    if (!typing && !mod && event.key === "/") { event.preventDefault(); $("prompt").focus(); }
    else if (!typing && !mod && event.key === "?") { event.preventDefault(); $("shortcuts-dialog").showModal(); }
    else if (event.key === "Escape" && currentTurn()) { event.preventDefault(); stop(); }
    else if (mod && event.key.toLowerCase() === "k") { event.preventDefault(); $("search").focus(); }
    else if (mod && event.shiftKey && event.key.toLowerCase() === "o") { event.preventDefault(); newChat(); }
  });
}

/// Opens what the address names: a chat (`#/s/ID`), a page (`#/calendar`), or a new chat.
async function route() {
  const match = location.hash.match(/^#\/s\/([0-9a-fA-F-]{36})$/);
  const page = location.hash.match(/^#\/([a-z]+)$/);
  if (match) {
    if (state.current?.id !== match[1] || $("view-chat").hidden) await openSession(match[1]);
  } else if (page && pages[page[1]]) {
    if ($(`view-${page[1]}`).hidden) showView(page[1]);
  } else if (location.hash !== "#/" || !state.current) {
    newChat();
  }
}

async function start() {
  applyTheme(localStorage.getItem("hearth.theme") ?? "system");
  wire();
  try {
    await Promise.all([loadSessions(), loadSettings()]);
    await route();
    window.addEventListener("hashchange", () => route().catch((error) => showError(error.message)));
  } catch (error) {
    showError(error.message);
  }
}

start();
