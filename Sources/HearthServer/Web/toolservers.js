// The Settings page's MCP servers: what is added, each tool's policy, adding and removing.
import { $, api, askFirst, attempt, el, getJSON, sendJSON } from "/assets/api.js";

/// Splits a command line into words: spaces separate, quotes keep spaces.
export function commandWords(line) {
  const words = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]);
  return words;
}

function serverCard(server) {
  const where = server.url ?? server.command.join(" ");
  const tools = server.tools.map((tool) => {
    const select = el("select", { "aria-label": `When ${server.name} calls ${tool.name}` },
      el("option", { value: "ask" }, "Ask me first"),
      el("option", { value: "allow" }, "Run at once"));
    select.value = tool.policy;
    select.addEventListener("change", attempt(async () => {
      const name = encodeURIComponent(server.name), tool_ = encodeURIComponent(tool.name);
      const saved = await sendJSON(`/api/mcp/servers/${name}/tools/${tool_}`, "PUT", { policy: select.value });
      $("tool-servers-status").textContent = `Saved: ${tool.name} ${select.value === "allow" ? "runs at once" : "asks first"}.`;
      render(saved);
    }));
    return el("li", { class: "tool" }, el("strong", {}, tool.name), tool.read_only ? " (only reads) " : " ",
      el("span", { class: "muted" }, tool.description), " ", select);
  });
  const remove = el("button", { class: "button", type: "button", onclick: attempt(async () => {
    if (!(await askFirst(`Remove ${server.name}? Its tools are no longer offered.`, "Remove"))) return;
    await api(`/api/mcp/servers/${encodeURIComponent(server.name)}`, { method: "DELETE" });
    $("tool-servers-status").textContent = `Removed ${server.name}.`;
    await load();
  }) }, `Remove ${server.name}`);
  return el("div", { class: "tool-server", "data-server": server.name },
    el("h4", {}, server.name, " ", el("code", {}, where)),
    tools.length ? el("ul", {}, tools) : el("p", { class: "muted" }, "No tools."), remove);
}

function render(server) {
  const existing = document.querySelector(`#tool-servers [data-server="${CSS.escape(server.name)}"]`);
  existing?.replaceWith(serverCard(server));
}

async function load() {
  const { servers } = await getJSON("/api/mcp/servers");
  const box = $("tool-servers");
  box.replaceChildren(...(servers.length ? servers.map(serverCard) : [el("p", { class: "muted" }, "No servers added yet.")]));
}

/// Shows the servers and wires the form that adds one.
export async function wireToolServers() {
  const form = $("tool-servers-form");
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const name = form.name.value.trim();
    const command = commandWords(form.command.value.trim());
    const url = form.url.value.trim();
    const body = url ? { name, url } : { name, command };
    $("tool-servers-status").textContent = `Starting ${name} to list its tools…`;
    try {
      const added = await sendJSON("/api/mcp/servers", "POST", body);
      $("tool-servers-status").textContent = `Added ${added.name} with ${added.tools.length} tools.`;
      form.reset();
      await load();
    } catch (error) {
      $("tool-servers-status").textContent = "";
      throw error;
    }
  }));
  await load();
}
