// A turn in the chat on screen: a new message, an edited one, an answer regenerated or continued. Each streams
// the server's events into the conversation; the chats list and header are told when it ends.
import { $, api, getJSON, sendJSON, showError, toast } from "/assets/api.js";
import { clearReply, replyTarget, replyTo } from "/assets/reply.js";
import { restoreAttachments, takeAttachments } from "/assets/attachments.js";
import { shownText, showCards } from "/assets/actions.js";
import { fillMessage, messageElement, setMessageHandlers, showForks, showSources } from "/assets/conversation.js";
import { currentTurn, state } from "/assets/state.js";
import { setModelChip } from "/assets/models.js";

// What the page around the conversation does (set by `wireTurns`): make the chat a first message goes to, put
// a message that was not sent back into the box, open a chat again, show a chat's detail, hear a turn end.
let page = { ensureSession: null, putBack: null, reopen: null, show: null, turnEnded: null };

// Who hears each answer as it is written (the hands-free mode reads it aloud): `text(session, shown)` as it
// grows, `end(session, answer)` once, however the turn ends.
const answerListeners = new Set();

export function listenToAnswers(listener) {
  answerListeners.add(listener);
  return () => answerListeners.delete(listener);
}

function tellListeners(kind, session, value) {
  for (const listener of answerListeners) {
    try { listener[kind]?.(session, value); } catch (error) { console.error(error); }
  }
}

export function wireTurns(given) {
  page = given;
  setMessageHandlers({ regenerate, edit, continueAnswer, showVersion });
}

/// The server-sent events of a response, as `{ name, data }` with the data parsed.
export async function* serverEvents(response) {
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
export function setGenerating() {
  const generating = Boolean(currentTurn());
  $("send").hidden = generating;
  $("stop").hidden = !generating;
}

/// Sends a new message from the composer.
export async function send(text) {
  $("banner").hidden = true;
  const replying = replyTarget();
  clearReply();
  const session = await page.ensureSession(text);
  const files = takeAttachments(session.id);
  const list = $("messages");
  list.querySelector(".empty-state")?.remove();
  const user = messageElement({ role: "user", content: text, state: "complete", attachments: files });
  const answer = messageElement({ role: "assistant", content: "", state: "generating" });
  list.append(user, answer);
  list.scrollTop = list.scrollHeight;
  await runTurn(session, {
    path: `/api/sessions/${session.id}/turns`,
    body: { text, ...(replying ? { reply_to: replying.id } : {}), ...(files.length ? { attachments: files.map((file) => file.id) } : {}) },
    user, answer,
    // Never sent: the message goes back into the box, to send again as it is (still a reply).
    notSent: (error) => {
      user.remove();
      answer.remove();
      if (replying) replyTo({ id: replying.id, role: "user", content: replying.text });
      if (files.length) restoreAttachments(files);
      page.putBack(session, text, error);
    },
  });
}

/// Whether the chat on screen may start another turn now; says why not when it may not.
function mayStart() {
  if (!currentTurn()) return true;
  toast("This chat is still answering: wait for it, or stop it with Esc.");
  return false;
}

/// The messages from `element` on leave the screen (they are kept as another version).
function removeFrom(element) {
  for (let node = element; node;) {
    const next = node.nextElementSibling;
    node.remove();
    node = next;
  }
}

async function regenerate(element) {
  if (!mayStart()) return;
  const session = state.current;
  const message = element.message;
  const user = element.previousElementSibling;
  const answer = messageElement({ role: "assistant", content: "", state: "generating", index: message.index });
  removeFrom(element);
  $("messages").append(answer);
  await runTurn(session, {
    path: `/api/sessions/${session.id}/messages/${message.id}/regenerate`, body: {}, user, answer,
    notSent: (error) => page.reopen(session, error),
  });
}

async function edit(element, text) {
  if (!mayStart()) return;
  const session = state.current;
  const message = element.message;
  const user = messageElement({ role: "user", content: text, state: "complete", index: message.index });
  const answer = messageElement({ role: "assistant", content: "", state: "generating", index: message.index + 1 });
  removeFrom(element);
  $("messages").append(user, answer);
  await runTurn(session, {
    path: `/api/sessions/${session.id}/messages/${message.id}/edit`, body: { text }, user, answer,
    notSent: (error) => page.reopen(session, error),
  });
}

async function continueAnswer(element) {
  if (!mayStart()) return;
  const session = state.current;
  const message = element.message;
  fillMessage(element, { ...message, state: "generating", stop_reason: null, error: null });
  await runTurn(session, {
    path: `/api/sessions/${session.id}/messages/${message.id}/continue`, body: {},
    user: element.previousElementSibling, answer: element, continuing: message,
    notSent: (error) => { fillMessage(element, message); showError(error.message, { unreachable: error.unreachable }); },
  });
}

/// Shows another version of the chat from a fork on.
async function showVersion(position, index) {
  if (!mayStart()) return;
  const session = state.current;
  try {
    const detail = await sendJSON(`/api/sessions/${session.id}/forks/${position}`, "PUT", { current: index });
    if (state.current?.id !== session.id) return;
    await page.show(detail);
    const first = $("messages").querySelector(`article.message[data-index="${position}"]`);
    first?.scrollIntoView({ block: "nearest" });
    first?.querySelector(".version-step:not(:disabled)")?.focus();
  } catch (error) {
    showError(error.message);
  }
}

/// Streams a turn into `answer`. `notSent` hears a failure before the server took the turn: nothing changed.
async function runTurn(session, { path, body, user, answer: answerElement, continuing, notSent }) {
  const list = $("messages");
  const queued = document.createElement("div");
  queued.className = "queued";
  queued.hidden = true;
  answerElement.append(queued);
  list.scrollTop = list.scrollHeight;

  const controller = new AbortController();
  const turn = { session: session.id, controller, started: false, user, answer: answerElement, away: false };
  state.turns.set(session.id, turn);
  const sight = followSight(turn);
  setGenerating();
  let answer = continuing
    ? { ...continuing, shown: shownText(continuing), state: "generating" }
    : { role: "assistant", content: "", shown: "", thinking: "", state: "generating" };
  // A streaming answer is drawn at most ten times a second: the model answering it runs on the same machine,
  // and drawing every token's frame would take time from it.
  let frame = null;
  let drawnAt = 0;
  // Whether the chat is followed to its end: so from the start (the list was just scrolled there), not once the
  // reader scrolls up, and again when they come back down. Text and cards growing fire no scroll event, so what was
  // just drawn never decides it, and the chat ends at the answer's cards (their Undo never left under the composer).
  let following = true;
  const onScroll = () => { following = list.scrollHeight - list.scrollTop - list.clientHeight < 80; };
  list.addEventListener("scroll", onScroll, { passive: true });
  const keepEnd = () => { if (following && answerElement.isConnected) list.scrollTop = list.scrollHeight; };
  const redraw = () => {
    frame = null;
    drawnAt = performance.now();
    fillMessage(answerElement, answer);
    if (answer.sources) showSources(answerElement, answer.sources);
    if (queued.isConnected) answerElement.append(queued);
    keepEnd();
  };
  const redrawSoon = () => {
    frame ??= setTimeout(() => requestAnimationFrame(redraw), Math.max(0, drawnAt + 100 - performance.now()));
  };
  try {
    const response = await api(path, { method: "POST", json: body, signal: controller.signal });
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
          setModelChip("loading", event.data.model);
          break;
        case "started": {
          turn.started = true;
          sight.tell();
          // Stop was asked for before the server had the turn: it is asked of the server now, so that a change
          // being prepared is not made.
          if (turn.stopWanted) stop();
          // The model is in memory now: the header says which, and that it is.
          if (queued.dataset.loading) document.dispatchEvent(new Event("hearth:model-changed"));
          if (!queued.dataset.loading) queued.remove();
          // The chat may have been opened again since this was sent, showing the saved copies of these two
          // messages beside the live ones: the live ones stay.
          for (const [element, message] of [[user, event.data.user], [answerElement, event.data.assistant]]) {
            if (!element) continue;
            const saved = list.querySelector(`[data-id="${message.id}"]`);
            if (saved && saved !== element) saved.remove();
            element.dataset.id = message.id;
            element.dataset.index = message.index;
            // As stored: a reply carries its quote.
            if (element === user) {
              fillMessage(user, {
                ...user.message, id: message.id, index: message.index, content: message.content ?? user.message.content,
                created_at: message.created_at,
              });
            }
          }
          answer = { ...answer, id: event.data.assistant.id, index: event.data.assistant.index };
          break;
        }
        case "trimmed":
          toast(`Conversation trimmed: ${event.data.dropped_messages} earlier messages are summarised.`);
          break;
        case "preparing":
          // Said in words until the answer begins.
          if (!queued.isConnected) answerElement.append(queued);
          queued.hidden = false;
          queued.textContent = event.data.text;
          break;
        case "thinking":
          queued.hidden = true;
          answer.thinking = (answer.thinking ?? "") + event.data.text;
          redrawSoon();
          break;
        case "answer":
          answer.content += event.data.text;
          answer.shown += event.data.shown;
          if (event.data.shown) {
            queued.hidden = true;
          } else if (!answer.shown.trim() && event.data.writing_block) {
            // A change the model is writing out shows nothing until it is complete: say so in words.
            if (!queued.isConnected) answerElement.append(queued);
            if (queued.hidden) queued.textContent = "Preparing the change…";
            queued.hidden = false;
          }
          tellListeners("text", session.id, answer.shown);
          redrawSoon();
          break;
        case "replaced":
          // The answer stated what the data does not hold: what was found stands in its place.
          answer.content = event.data.text;
          answer.shown = event.data.shown;
          tellListeners("text", session.id, answer.shown);
          redrawSoon();
          break;
        case "actions":
          // The answer's text may not be drawn yet (it is drawn a frame later): the cards read it as written.
          showCards(answerElement, event.data.actions, answer.shown);
          keepEnd();
          break;
        case "sources":
          answer.sources = event.data.sources;
          break;
        case "done":
          answer = { ...event.data.message, sources: answer.sources };
          // The chat as the turn left it (title, versions): the page needs no second download to learn it.
          turn.after = { session: event.data.session, forks: event.data.forks };
          if (answer.state === "failed") showError(`The answer failed: ${answer.error ?? "unknown error"}`);
          redraw();
          break;
        case "error":
          // An error before the turn started, after a load was announced, is the load's.
          if (queued.dataset.loading && !turn.started) setModelChip("failed", event.data.message);
          showError(event.data.message);
          break;
      }
    }
  } catch (error) {
    // A turn cut off while its model loaded leaves the chip to say what the server has.
    if (queued.dataset.loading && !turn.started) document.dispatchEvent(new Event("hearth:model-changed"));
    if (error.name === "AbortError") {
      if (answer.state === "generating") { answer.state = "cancelled"; redraw(); }
    } else if (!turn.started) {
      notSent(error);
    } else if (turn.away && (error.unreachable || error instanceof TypeError)) {
      // The page was out of sight when its connection dropped (a phone locked): the server writes the answer to
      // its end all the same, and the chat is shown as the server has it once the page is seen again.
      turn.showWhenSeen = true;
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
    sight.stop();
    list.removeEventListener("scroll", onScroll);
    tellListeners("end", session.id, answer);
    queued.remove();
    state.turns.delete(session.id);
    if (turn.showWhenSeen) showWhenSeen(session.id);
    setGenerating();
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused.id === "stop") $("prompt").focus();
    await page.turnEnded(session.id, turn.after ?? {});
  }
}

/// While a turn runs, the page tells the server when it goes out of sight and comes back (`/away`). Out of sight
/// (a phone locked, another tab shown), the answer is written to its end even if this connection drops, and this
/// device is sent a notification when it is there.
function followSight(turn) {
  const tell = () => {
    const away = document.visibilityState === "hidden";
    if (!turn.started || away === turn.away) return;
    turn.away = away;
    // Sent even as the page is put away or closed.
    api(`/api/sessions/${turn.session}/away`, { method: away ? "POST" : "DELETE", keepalive: true }).catch(() => {});
  };
  document.addEventListener("visibilitychange", tell);
  return { tell, stop: () => document.removeEventListener("visibilitychange", tell) };
}

/// Shows the chat as the server has it (and follows the answer still being written) once the page is in sight.
function showWhenSeen(sessionID) {
  const show = async () => {
    if (document.visibilityState === "hidden") return;
    document.removeEventListener("visibilitychange", show);
    if (state.current?.id !== sessionID) return;
    try {
      await page.show(await getJSON(`/api/sessions/${sessionID}`));
    } catch (error) {
      showError(error.message, { unreachable: error.unreachable });
    }
  };
  document.addEventListener("visibilitychange", show);
  show();
}

/// The versions of the chat on screen, once a turn may have made a new one: those its `done` event gave, or the
/// chat's own when it gave none.
export async function refreshForks(sessionID, known) {
  const forks = known ?? (await getJSON(`/api/sessions/${sessionID}`)).forks;
  if (state.current?.id === sessionID && !currentTurn()) showForks($("messages"), forks);
}

export async function stop() {
  const turn = currentTurn();
  if (!turn) return;
  if (!turn.started) {
    // The request may be on its way: the server stops the turn as soon as it has it (above). Only a server
    // that does not answer at all is given up on here.
    turn.stopWanted = true;
    setTimeout(() => { if (!turn.started) turn.controller.abort(); }, 3000);
    return;
  }
  try {
    await api(`/api/sessions/${turn.session}/stop`, { method: "POST" });
  } catch (error) {
    turn.controller.abort();
  }
}
