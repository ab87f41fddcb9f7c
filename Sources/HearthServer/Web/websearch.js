// The web search server on the Settings page: the SearXNG address WEB_SEARCH uses, a test search, and off.
import { $, api, askFirst, getJSON, sendJSON, showError } from "/assets/api.js";

function fill(view) {
  const form = $("web-search-form");
  form.elements.url.value = view.url ?? "";
  form.elements.url.readOnly = view.source === "environment";
  $("web-search-forget").hidden = view.source !== "profile";
  $("web-search-status").textContent = view.source === "environment"
    ? "Set by HEARTH_SEARXNG_URL when the server started." : view.url
      ? "On: the assistant may search this server when you ask it to." : "Off: nothing is searched on the web.";
}

export async function loadWebSearch() {
  try {
    fill(await getJSON("/api/web-search"));
  } catch (error) {
    showError(error.message);
  }
}

/// A test search's outcome, in words.
function checked(check) {
  if (!check.reachable) return `Not usable: ${check.problem ?? "no answer"}.`;
  const found = check.results === 1 ? "1 result" : `${check.results} results`;
  return `It answers: ${found} for a test search (${Math.round(check.milliseconds)} ms).`;
}

export function wireWebSearch() {
  const form = $("web-search-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      fill(await sendJSON("/api/web-search", "PUT", { url: form.elements.url.value.trim() }));
      $("web-search-status").textContent = "Saved: the next web search goes to this server.";
    } catch (error) {
      showError(error.message);
    }
  });
  $("web-search-check").addEventListener("click", async () => {
    const typed = form.elements.url.value.trim();
    $("web-search-status").textContent = "Searching…";
    try {
      $("web-search-status").textContent = checked(await sendJSON("/api/web-search/check", "POST", typed ? { url: typed } : {}));
    } catch (error) {
      $("web-search-status").textContent = "";
      showError(error.message);
    }
  });
  $("web-search-forget").addEventListener("click", async () => {
    if (!(await askFirst("Turn web search off and forget this server?", "Turn off"))) return;
    try {
      fill(await (await api("/api/web-search", { method: "DELETE" })).json());
    } catch (error) {
      showError(error.message);
    }
  });
}
