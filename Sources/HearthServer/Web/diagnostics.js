// The Diagnostics page: what is wrong and what to do, the doctor report (figures only), charts of recent speed,
// the latest log lines, and Copy.
import { $, copyText, el, getJSON, showError } from "/assets/api.js";

let reportText = "";

const size = (bytes) => bytes == null ? null
  : bytes === 0 ? "none"
  : bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(1)} GiB`
  : bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
const ms = (value) => value == null ? null : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
const rate = (value) => value == null ? null : `${value.toFixed(1)} tokens/s`;

function duration(seconds) {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} days`;
}

function section(title, rows) {
  const list = el("dl", { class: "facts" });
  for (const [label, value] of rows) {
    if (value === undefined) continue;
    list.append(el("dt", {}, label), el("dd", {}, value ?? "–"));
  }
  return el("section", { class: "diagnostics-section" }, el("h3", {}, title), list);
}

/// A small bar chart of `values` (oldest first), labelled for screen readers with its range.
function chart(title, values, format) {
  const known = values.filter((v) => v != null);
  const box = el("figure", { class: "chart" }, el("figcaption", {}, title));
  if (known.length === 0) {
    box.append(el("p", { class: "muted" }, "No generations on record yet."));
    return box;
  }
  const max = Math.max(...known);
  const width = 240, height = 56, gap = 2;
  const bar = Math.max(2, (width - gap * (values.length - 1)) / values.length);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${title}: ${known.length} generations, from ${format(Math.min(...known))} to ${format(max)}`);
  values.forEach((value, index) => {
    if (value == null) return;
    const rect = document.createElementNS(ns, "rect");
    const h = max > 0 ? Math.max(1, (value / max) * (height - 4)) : 1;
    rect.setAttribute("x", String(index * (bar + gap)));
    rect.setAttribute("y", String(height - h));
    rect.setAttribute("width", String(bar));
    rect.setAttribute("height", String(h));
    const tip = document.createElementNS(ns, "title");
    tip.textContent = format(value);
    rect.append(tip);
    svg.append(rect);
  });
  box.append(svg, el("p", { class: "muted" }, `latest ${format(known[known.length - 1])} · highest ${format(max)}`));
  return box;
}

export async function loadDiagnostics() {
  try {
    const d = await getJSON("/api/diagnostics");
    const r = d.report;
    reportText = d.text;
    const p = r.performance;
    const m = r.model;
    const container = $("diagnostics");
    container.replaceChildren(
      repairs(r.repairs),
      el("div", { class: "charts" },
        chart("Generation speed", p.recent.map((g) => g.tokens_per_second), rate),
        chart("Time to first token", p.recent.map((g) => g.first_token_ms), ms)),
      section("Model", m ? [
        // Named as the chat header and the Models page name it; the name written inside the file is shown
        // only when it says something else.
        ["Model", m.file.replace(/\.gguf$/i, "")], ["File", m.file],
        ["Name in the file", m.display_name && m.display_name !== m.file.replace(/\.gguf$/i, "") ? m.display_name : undefined], ["Size", size(m.size_bytes)], ["Status", m.status],
        ["Loaded", m.loaded ? "yes" : "no"], ["Context", m.context_size ? `${m.context_size} tokens` : null],
        ["Chat template", m.chat_template ?? "the model's own"], ["Estimated memory", size(m.estimated_bytes)],
      ] : [["Model", "none installed"]]),
      section("Answers come from", [
        ["Preference", r.provider.preference],
        ["Remote server", r.provider.remote_kind ? `${r.provider.remote_kind}, model ${r.provider.remote_model}` : "not configured"],
        ["Last answered by", r.provider.last_provider ?? "no answer yet"],
      ]),
      section("Settings check", r.settings.map((c) => [c.name, c.verdict === "ok" ? `${c.wanted} ✓` : `${c.wanted} — ${c.verdict}`])),
      section("Recent performance", [
        ["Generations", String(p.generations)],
        ["Failures", `${p.failures} (${(p.failure_rate * 100).toFixed(1)} %)`],
        ["First token (median)", ms(p.median_first_token_ms)],
        ["Generation (median)", rate(p.median_tokens_per_second)],
        ["Prompt (median)", rate(p.median_prefill_tokens_per_second)],
        ["Latest loads", r.loads.length ? r.loads.slice(-3).map((l) => ms(l.duration_ms)).join(", ") : "none on record"],
      ]),
      section("Memory", [
        ["Machine", size(r.memory.physical_bytes)],
        ["Available", `${size(r.memory.available_bytes)} (${r.memory.available_source})`],
        ["Hearth now", size(r.memory.process_resident_bytes)],
        ["Hearth at peak", size(r.memory.process_peak_bytes)],
      ]),
      section("Machine care", [
        ["Temperature", r.machine.care.readings.thermals.length
          ? `${Math.round(Math.max(...r.machine.care.readings.thermals.map((t) => t.celsius)))} °C` : "no sensor readable"],
        ["Power", r.machine.care.readings.power
          ? (r.machine.care.readings.power.on_battery ? `on battery${r.machine.care.readings.power.battery_percent != null ? ` at ${r.machine.care.readings.power.battery_percent} %` : ""}` : "on mains")
          : "not readable"],
        ["Care", r.machine.care.reasons.length
          ? `easing off: ${r.machine.care.reasons.join("; ")} — local models use half their threads, automations wait`
          : "at ease"],
      ]),
      section("This installation", [
        ["Version", d.version], ["Up for", duration(d.uptime_seconds)], ["Chats", String(d.sessions)],
        ["Messages", String(d.messages)], ["Database", size(d.database_bytes)],
        ["Requests waiting or running", String(d.queue_depth)], ["Processors", String(d.processors)],
        ["System", r.machine.operating_system], ["Listening on", d.host + (d.api_key_required ? " (API key required)" : "")],
      ]),
      recentLog());
    await loadLog();
  } catch (error) {
    showError(error.message);
  }
}

/// What Diagnostics found wrong, each with what to do; a line saying so when nothing is.
function repairs(found) {
  const box = el("section", { class: "diagnostics-section", id: "diagnostics-repairs" },
    el("h3", {}, "Problems, and what to do"));
  if (!found.length) {
    box.append(el("p", { class: "muted" }, "Nothing needs doing."));
    return box;
  }
  box.append(el("ul", { class: "repairs" }, ...found.map((one) =>
    el("li", {}, el("strong", {}, one.problem), el("br"), el("span", {}, one.steps)))));
  return box;
}

/// The latest lines the server logged (requests, loads, syncs, failures; never what anyone wrote).
function recentLog() {
  const refresh = el("button", { class: "button small", type: "button", id: "diagnostics-log-refresh",
    onclick: () => loadLog().catch((error) => showError(error.message)) }, "Refresh");
  return el("section", { class: "diagnostics-section", id: "diagnostics-log-section" },
    el("h3", {}, "Recent log ", refresh),
    el("pre", { class: "report-text log-lines", id: "diagnostics-log", tabindex: "0", "aria-label": "Recent log lines" }));
}

async function loadLog() {
  const { lines } = await getJSON("/api/diagnostics/log?limit=200");
  const shown = lines.map((line) => {
    const time = new Date(line.time * 1000 || line.time).toLocaleTimeString();
    const extra = Object.entries(line.metadata).map(([key, value]) => `${key}=${value}`).join(" ");
    return `${time} ${line.level.padEnd(7)} ${line.label} ${line.message}${extra ? " " + extra : ""}`;
  });
  const box = $("diagnostics-log");
  box.textContent = shown.length ? shown.join("\n") : "Nothing logged yet.";
  box.scrollTop = box.scrollHeight;
}

export function wireDiagnostics() {
  $("copy-diagnostics").addEventListener("click", async () => {
    const status = $("diagnostics-status");
    status.textContent = await copyText(reportText) ? "Copied the report." : "Copying is blocked here; select the report below.";
    if (status.textContent.startsWith("Copying")) {
      $("diagnostics-text").hidden = false;
      $("diagnostics-text").textContent = reportText;
    }
  });
}
