// Model downloads on the Models page: start one, watch its progress, cancel it.
import { $, api, el, getJSON, sendJSON, showError } from "/assets/api.js";

let timer = null;
let onInstalled = () => {};

const mib = (bytes) => `${(bytes / (1 << 20)).toFixed(1)} MiB`;

function eta(seconds) {
  if (seconds == null || !isFinite(seconds)) return "";
  const s = Math.round(seconds);
  return s < 60 ? `${s} s left` : `${Math.floor(s / 60)} min ${s % 60} s left`;
}

function describe(pull) {
  const file = pull.url.split("/").pop();
  switch (pull.state) {
    case "done": return `${file}: installed as ${pull.model}.`;
    case "cancelled": return `${file}: cancelled at ${mib(pull.received)}; downloading it again resumes there.`;
    case "failed": return `${file}: ${pull.error}`;
    default: {
      const total = pull.total ? ` / ${mib(pull.total)}` : "";
      const rate = pull.bytes_per_second > 0 ? ` · ${(pull.bytes_per_second / (1 << 20)).toFixed(1)} MiB/s` : "";
      const resumed = pull.resumed_from > 0 ? ` · resumed at ${mib(pull.resumed_from)}` : "";
      return `${file}: ${mib(pull.received)}${total}${rate}${resumed} ${eta(pull.seconds_left)}`;
    }
  }
}

function render(pulls) {
  $("pulls").replaceChildren(...pulls.slice().reverse().map((pull) => {
    const bar = el("progress", { max: pull.total ?? 1, value: pull.state === "done" ? (pull.total ?? 1) : pull.received });
    const item = el("li", { class: `pull ${pull.state}`, "data-id": pull.id }, el("span", {}, describe(pull)), bar);
    if (pull.state === "running") {
      const cancel = el("button", { type: "button" }, "Cancel");
      cancel.addEventListener("click", async () => {
        cancel.disabled = true;
        try {
          await api(`/api/models/pulls/${pull.id}`, { method: "DELETE" });
        } catch (error) {
          showError(error.message);
        }
        refresh();
      });
      item.append(cancel);
    }
    return item;
  }));
}

export async function refresh() {
  clearTimeout(timer);
  try {
    const { pulls } = await getJSON("/api/models/pulls");
    const wasRunning = $("pulls").querySelector(".pull.running") !== null;
    render(pulls);
    const running = pulls.some((pull) => pull.state === "running");
    if (wasRunning && !running) onInstalled();
    if (running && !$("view-models").hidden) timer = setTimeout(refresh, 500);
  } catch (error) {
    showError(error.message);
  }
}

export function wirePulls(installed) {
  onInstalled = installed;
  $("pull-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const body = { url: form.elements.url.value.trim(), sha256: form.elements.sha256.value.trim() };
    if (form.elements.name.value.trim()) body.name = form.elements.name.value.trim();
    try {
      await sendJSON("/api/models/pulls", "POST", body);
      form.reset();
      refresh();
    } catch (error) {
      showError(error.message);
    }
  });
}
