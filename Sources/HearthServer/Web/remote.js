// The remote server on the Settings page: where it is, how turns use it; the key is only ever sent, never shown.
import { $, api, askFirst, getJSON, sendJSON, showError } from "/assets/api.js";

function fill(view) {
  const form = $("remote-form");
  const radio = form.querySelector(`input[name='preference'][value='${view.preference}']`);
  if (radio) radio.checked = true;
  form.elements.url.value = view.url ?? "";
  form.elements.kind.value = view.kind ?? "openai";
  form.elements.model.value = view.model ?? "";
  form.elements.api_key.value = "";
  form.elements.api_key.placeholder = view.key ? `set (${view.key}); type to replace, clear with a space` : "none";
  form.elements.first_token_timeout.value = view.first_token_timeout ?? "";
  form.elements.park_local_after.value = view.park_local_after ?? "";
  form.elements.writes_from_facts.checked = view.writes_from_facts ?? true;
  const origin = view.source === "environment" ? " (from HEARTH_REMOTE_URL)" : "";
  $("remote-status").textContent = view.url
    ? `Set up${origin}. ${standings[view.standing] ?? ""}`.trim() : "No remote server: answers come from this machine.";
}

/// What the background probes found, in words.
const standings = {
  unknown: "Not checked yet.",
  proving: "Reachable; answers move to it once it has stayed so for a moment.",
  usable: "Reachable: it answers.",
  unreachable: "Not reachable now: answers come from this machine.",
};

export async function loadRemote() {
  try {
    fill(await getJSON("/api/remote"));
  } catch (error) {
    showError(error.message);
  }
}

export function wireRemote() {
  const form = $("remote-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      url: form.elements.url.value.trim(), kind: form.elements.kind.value,
      preference: form.querySelector("input[name='preference']:checked")?.value ?? "auto",
    };
    if (form.elements.model.value.trim()) body.model = form.elements.model.value.trim();
    // An untouched key field keeps the saved key; a single space removes it.
    if (form.elements.api_key.value !== "") body.api_key = form.elements.api_key.value.trim();
    if (form.elements.first_token_timeout.value !== "") body.first_token_timeout = Number(form.elements.first_token_timeout.value);
    if (form.elements.park_local_after.value !== "") body.park_local_after = Number(form.elements.park_local_after.value);
    body.writes_from_facts = form.elements.writes_from_facts.checked;
    try {
      fill(await sendJSON("/api/remote", "PUT", body));
      $("remote-status").textContent = "Saved: the next answer follows these settings.";
      document.dispatchEvent(new Event("hearth:model-changed"));
    } catch (error) {
      showError(error.message);
    }
  });
  $("remote-check").addEventListener("click", async () => {
    $("remote-status").textContent = "Checking…";
    try {
      const check = await sendJSON("/api/remote/check", "POST", {});
      $("remote-status").textContent = check.reachable
        ? `Reachable (${Math.round(check.milliseconds)} ms).` : "Not reachable: answers come from this machine.";
    } catch (error) {
      $("remote-status").textContent = "";
      showError(error.message);
    }
  });
  $("remote-forget").addEventListener("click", async () => {
    if (!(await askFirst("Forget the remote server and its key? Answers then come from this machine.", "Forget"))) return;
    try {
      fill(await (await api("/api/remote", { method: "DELETE" })).json());
      document.dispatchEvent(new Event("hearth:model-changed"));
    } catch (error) {
      showError(error.message);
    }
  });
}
