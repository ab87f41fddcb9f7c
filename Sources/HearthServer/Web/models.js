// The Models page's list: every installed model with what its header says, and a way to answer with it.
import { $, el, getJSON, sendJSON, showError } from "/assets/api.js";

function fact(list, label, value) {
  const term = document.createElement("dt");
  term.textContent = label;
  const detail = document.createElement("dd");
  detail.textContent = value ?? "–";
  list.append(term, detail);
}

const size = (bytes) => bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(1)} GiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`;

/// The model that answers, named in the chat's header (a remote server's when turns go there), with whether it
/// is in memory; a link to the Models page.
export async function showModelName() {
  const [{ models, active, loaded }, remote] = await Promise.all([getJSON("/api/models"), getJSON("/api/remote").catch(() => null)]);
  const chip = $("model-chip");
  const remoteName = remote?.url && remote.preference !== "local" ? (remote.model || new URL(remote.url).host) : null;
  // A chip that says a load failed keeps saying so until a model is in memory again or answers come from elsewhere.
  if (chip.dataset.state === "failed" && loaded !== active && !remoteName) return;
  chip.dataset.state = loaded && loaded === active ? "ready" : "idle";
  chip.dataset.note = chip.dataset.state === "ready" ? "in memory" : "not in memory; it loads with the next answer";
  const model = models.find((candidate) => candidate.id === active);
  const local = model ? model.id.replace(/\.gguf$/i, "") : null;
  chip.hidden = !local && !remoteName;
  if (chip.hidden) return;
  if (remoteName && (remote.preference === "remote" || !local)) {
    chip.dataset.state = "remote";
    chip.textContent = `${remoteName} (remote)`;
    chip.title = `Answers come from ${remoteName} on ${remote.url}${local ? `; ${local} on this machine when it cannot be reached` : ""}.`;
  } else {
    chip.textContent = local;
    chip.title = `Answers come from ${model.name ?? local}, on this machine (${chip.dataset.note})${remoteName ? `, or from ${remoteName} when it is used` : ""}. Choose another model on the Models page.`;
  }
  chip.setAttribute("aria-label", `${chip.textContent}: ${chip.dataset.state === "remote" ? "remote" : chip.dataset.note}`);
}

/// What a turn tells of the model while it waits: `loading` (with its name), `ready` once it answers, or
/// `failed` (with why) when it could not be loaded. The chip says it in words as well as by its mark.
export function setModelChip(state, detail = "") {
  const chip = $("model-chip");
  if (chip.hidden || chip.dataset.state === "remote") return;
  const name = chip.textContent.replace(/ \((loading…|failed to load)\)$/, "");
  chip.dataset.state = state;
  const words = { loading: "loading…", failed: "failed to load" }[state];
  chip.textContent = words ? `${name} (${words})` : name;
  chip.title = state === "failed" ? `The model could not be loaded: ${detail}. The Models page can check it or choose another.`
    : state === "loading" ? `Loading ${detail || name} into memory…` : chip.title;
  chip.setAttribute("aria-label", `${name}: ${words ?? "in memory"}`);
}

export async function loadModels() {
  try {
    const view = await getJSON("/api/models");
    const container = $("models");
    container.replaceChildren();
    if (view.models.length === 0) container.textContent = "No models installed.";
    for (const model of view.models) {
      const card = document.createElement("div");
      card.className = "model-card";
      const title = document.createElement("h3");
      // Named as the chat header names it (the file, without .gguf); the name inside the file is a fact below.
      title.textContent = model.id.replace(/\.gguf$/i, "");
      for (const [flag, label] of [[model.id === view.active, "chosen"], [model.id === view.loaded, "loaded"]]) {
        if (flag) title.append(el("span", { class: "badge" }, label));
      }
      const facts = document.createElement("dl");
      facts.className = "facts";
      fact(facts, "File", model.id);
      if (model.name && model.name !== model.id.replace(/\.gguf$/i, "")) fact(facts, "Name in the file", model.name);
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
            document.dispatchEvent(new Event("hearth:model-changed"));
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
