// A chat on screen follows what happens in it elsewhere (`GET /api/sessions/:id/live`): another tab's question
// and answer as they are written, and, after a reload, the answer still being written or how it really ended.
// The page's own turns come through their own streams (turn.js); what this one hears of them is left alone.
import { api, getJSON } from "/assets/api.js";
import { showCards, shownText } from "/assets/actions.js";
import { fillMessage, messageElement, showSources } from "/assets/conversation.js";
import { serverEvents } from "/assets/turn.js";
import { state } from "/assets/state.js";

// What the page around the conversation does (set by `wireLive`): show a chat's detail as the server sends it,
// and hear that a turn in it ended (its title and versions).
let page = { show: null, turnEnded: null };
let watching = null;

export function wireLive(given) {
  page = given;
}

// A page in the background lets its stream go (a browser keeps only a few connections to one server, shared by
// all its tabs), and coming back shows the chat as it is now, then follows it again.
document.addEventListener("visibilitychange", async () => {
  const sessionID = watching?.session ?? null;
  if (document.visibilityState === "hidden") {
    watching?.controller.abort();
    watching = { session: sessionID, controller: new AbortController(), paused: true };
    return;
  }
  if (!watching?.paused || !sessionID || state.current?.id !== sessionID) return;
  watching = null;
  if (!state.turns.has(sessionID)) {
    try {
      await page.show(await getJSON(`/api/sessions/${sessionID}`));
    } catch {
      // The chat went, or the server did: what is on screen stays.
    }
  }
  watchChat(sessionID);
});

/// Follows the chat `sessionID` while it is on screen (none: `null`); following another chat stops.
export function watchChat(sessionID) {
  if (watching?.session === sessionID && (watching.paused || !watching.controller.signal.aborted)) return;
  watching?.controller.abort();
  watching = null;
  if (!sessionID) return;
  const controller = new AbortController();
  watching = { session: sessionID, controller };
  follow(sessionID, controller);
}

async function follow(sessionID, controller) {
  let pause = 1000;
  while (!controller.signal.aborted) {
    try {
      const response = await api(`/api/sessions/${sessionID}/live`, { signal: controller.signal });
      pause = 1000;
      let live = null;
      for await (const event of serverEvents(response)) {
        if (state.current?.id !== sessionID) return;
        live = await heard(sessionID, event, live);
      }
    } catch (error) {
      if (controller.signal.aborted || error.status === 404) return;
    }
    // The server closed the stream (it restarted, or it is shutting down): follow again, less often each time.
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 30000);
  }
}

/// One event of the chat; `live` is the answer being written elsewhere, as far as it has come.
async function heard(sessionID, { name, data }, live) {
  // A turn this page runs is drawn by its own stream.
  if (state.turns.has(sessionID)) return null;
  const list = document.getElementById("messages");
  switch (name) {
    case "started": {
      // The question and the answer's place as stored now; the answer is written again from the events.
      await page.show(await getJSON(`/api/sessions/${sessionID}`));
      let element = list.querySelector(`[data-id="${data.assistant.id}"]`);
      if (!element) {
        element = messageElement(data.assistant);
        list.append(element);
      }
      const answer = { ...data.assistant, shown: shownText(data.assistant), state: "generating" };
      fillMessage(element, answer);
      list.scrollTop = list.scrollHeight;
      return { element, answer };
    }
    case "answer":
    case "replaced":
      if (!live) return live;
      if (name === "replaced") {
        live.answer.content = data.text;
        live.answer.shown = data.shown;
      } else {
        live.answer.content += data.text;
        live.answer.shown += data.shown;
      }
      fillMessage(live.element, live.answer);
      if (live.answer.sources) showSources(live.element, live.answer.sources);
      return live;
    case "sources":
      if (live) live.answer.sources = data.sources;
      return live;
    case "actions":
      if (live) showCards(live.element, data.actions);
      return live;
    case "done":
      if (!live) return live;
      live.answer = { ...data.message, sources: live.answer.sources };
      fillMessage(live.element, live.answer);
      if (live.answer.sources) showSources(live.element, live.answer.sources);
      await page.turnEnded(sessionID, { session: data.session, forks: data.forks });
      return null;
    case "idle":
      // No turn runs in the chat: an answer still drawn as being written ended while this page was away (a reload
      // during the answer), so the chat is shown as it is stored.
      if (list.querySelector(".bubble.cursor")) await page.show(await getJSON(`/api/sessions/${sessionID}`));
      return null;
    default:
      return live;
  }
}
