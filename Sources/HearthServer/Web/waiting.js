// What other assistants asked for over MCP and waits for the user: shown above the chat on every page, with
// Confirm and Cancel, and looked at again when the page comes back into view and every 30 seconds.
import { $, attempt, getJSON, sendJSON } from "/assets/api.js";
import { card } from "/assets/actions.js";

const shown = new Set();

async function refresh() {
  const { actions } = await getJSON("/api/actions?state=pending&limit=50");
  const cards = $("waiting-cards");
  const waiting = new Set(actions.map((record) => record.id));
  // A card the user settled here stays with its Undo until the next look, then goes; one settled elsewhere
  // (the terminal, another tab) goes at once.
  for (const node of [...cards.children]) {
    if (node.dataset.state !== "pending" || !waiting.has(node.dataset.id)) node.remove();
  }
  for (const record of actions.filter((record) => record.source).reverse()) {
    if (shown.has(record.id)) continue;
    shown.add(record.id);
    cards.append(card(record));
  }
  $("waiting").hidden = cards.children.length === 0;
}

/// Starts watching for changes that wait.
export function watchWaiting() {
  const check = () => refresh().catch(() => {});
  check();
  setInterval(check, 30_000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
}

/// The Settings page's switch for what MCP clients may add without asking, saved as soon as it changes.
export async function wireMCPSettings() {
  const box = $("mcp-form").allowsCreations;
  box.checked = (await getJSON("/api/mcp")).allows_creations;
  box.addEventListener("change", attempt(async () => {
    const saved = await sendJSON("/api/mcp", "PUT", { allows_creations: box.checked });
    box.checked = saved.allows_creations;
    $("mcp-status").textContent = saved.allows_creations ? "Saved: additions run at once." : "Saved: everything waits for you.";
  }));
}
