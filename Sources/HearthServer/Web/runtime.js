// "How the model runs" on the Models page: presets and numbers, with the impact shown before applying.
import { $, el, getJSON, sendJSON, showError } from "/assets/api.js";

let presets = {};
let previewTimer = null;

const mib = (bytes) => `${(bytes / (1 << 20)).toFixed(1)} MiB`;
const factor = (value) => `${value.toFixed(2)}×`;

function formSettings() {
  const form = $("runtime-form");
  const number = (name) => form.elements[name].value === "" ? null : Number(form.elements[name].value);
  return {
    preset: form.querySelector("input[name='preset']:checked")?.value ?? "balanced",
    context_size: number("context_size"), threads: number("threads"), batch_size: number("batch_size"),
    parallel: number("parallel"), prefetch: form.elements.prefetch.checked, gpu_layers: gpuLayers(form),
  };
}

// "auto", a layer count, or left empty for auto; anything else is sent as typed so the server names it.
function gpuLayers(form) {
  const text = form.elements.gpu_layers.value.trim();
  if (text === "") return null;
  return /^[0-9]+$/.test(text) ? Number(text) : text;
}

// A preset sets the numbers of one answer; how many are answered at once stays as it was.
function fill(settings, { keepParallel = false } = {}) {
  const form = $("runtime-form");
  const radio = form.querySelector(`input[name='preset'][value='${settings.preset}']`);
  if (radio) radio.checked = true;
  for (const name of ["context_size", "threads", "batch_size"]) form.elements[name].value = settings[name] ?? "";
  if (!keepParallel) {
    form.elements.parallel.value = settings.parallel ?? "";
    form.elements.prefetch.checked = settings.prefetch === true;
    form.elements.gpu_layers.value = settings.gpu_layers == null ? "" : String(settings.gpu_layers);
  }
}

function showImpact(impact) {
  const row = (label, now, next) => el("tr", {}, el("th", { scope: "row" }, label), el("td", {}, now), el("td", {}, next));
  const { current, proposed } = impact;
  $("runtime-impact").replaceChildren(
    el("caption", {}, `${impact.model}: now and with these settings`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Setting"), el("th", { scope: "col" }, "Now"),
      el("th", { scope: "col" }, "With these settings"))),
    row("Context", `${current.context_size} tokens`, `${proposed.context_size} tokens`),
    row("Threads", String(current.threads), String(proposed.threads)),
    row("Batch", String(current.batch_size), String(proposed.batch_size)),
    row("Requests at once", String(current.parallel), String(proposed.parallel)),
    row("Layers on the GPU", String(current.gpu_layers), String(proposed.gpu_layers)),
    row("Memory (estimate)", mib(current.estimated_bytes), mib(proposed.estimated_bytes)),
    row("KV cache", mib(current.kv_cache_bytes), mib(proposed.kv_cache_bytes)),
    row("Generation speed", "1.00×", `${factor(impact.generation_speed_factor)} (${impact.speed_source})`),
    row("Prompt speed", "1.00×", `${factor(impact.prompt_speed_factor)} (${impact.speed_source})`));
  showRisk(impact.risk);
}

const riskWords = { low: "Low risk", medium: "Some risk", high: "High risk" };

/// How risky the proposed numbers are for this machine's memory and the chat's answers, with the reasons.
function showRisk(risk) {
  const box = $("runtime-risk");
  box.hidden = !risk;
  if (!risk) return;
  box.dataset.level = risk.level;
  box.replaceChildren(el("strong", {}, riskWords[risk.level] ?? risk.level),
    risk.reasons.length
      ? el("ul", {}, ...risk.reasons.map((reason) => el("li", {}, `${reason[0].toUpperCase()}${reason.slice(1)}.`)))
      : el("span", {}, ": these numbers fit this machine's memory and the chat's answers."));
}

async function preview() {
  try {
    showImpact(await sendJSON("/api/runtime/preview", "POST", formSettings()));
    $("runtime-status").textContent = "";
  } catch (error) {
    $("runtime-status").textContent = error.message;
  }
}

function describeTest(test) {
  const parts = [`${test.model}, ${test.settings.preset}`];
  if (test.load_ms != null) parts.push(`load ${Math.round(test.load_ms)} ms`);
  if (test.first_token_ms != null) parts.push(`first token ${Math.round(test.first_token_ms)} ms`);
  if (test.tokens_per_second != null) parts.push(`${test.tokens_per_second.toFixed(1)} tokens/s`);
  return `Latest test: ${parts.join(" · ")}`;
}

export async function loadRuntime() {
  try {
    const overview = await getJSON("/api/runtime");
    presets = overview.presets;
    fill(overview.settings);
    $("runtime-status").textContent = overview.last_test ? describeTest(overview.last_test) : "";
    await preview();
  } catch (error) {
    showError(error.message);
  }
}

export function wireRuntime() {
  const form = $("runtime-form");
  form.addEventListener("change", (event) => {
    if (event.target.name === "preset" && presets[event.target.value] && event.target.value !== "custom") {
      fill(presets[event.target.value], { keepParallel: true });
    } else if (["context_size", "threads", "batch_size"].includes(event.target.name)) {
      form.querySelector("input[name='preset'][value='custom']").checked = true;
    }
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 150);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      showImpact(await sendJSON("/api/runtime", "PUT", formSettings()));
      $("runtime-status").textContent = "Applied: the model loads with these settings on its next answer.";
    } catch (error) {
      showError(error.message);
    }
  });
  $("runtime-validate").addEventListener("click", async () => {
    $("runtime-status").textContent = "Loading the model with the saved settings…";
    try {
      const { checks } = await sendJSON("/api/runtime/validate", "POST", {});
      $("runtime-status").textContent = checks
        .map((c) => `${c.name}: ${c.wanted} → llama.cpp ${c.given} (${c.verdict})`).join("; ");
    } catch (error) {
      $("runtime-status").textContent = "";
      showError(error.message);
    }
  });
  $("runtime-test").addEventListener("click", async () => {
    $("runtime-status").textContent = "Testing (waits for running answers)…";
    try {
      $("runtime-status").textContent = describeTest(await sendJSON("/api/runtime/test", "POST", {}));
    } catch (error) {
      $("runtime-status").textContent = "";
      showError(error.message);
    }
  });
}
