// The Settings page: sampling and answer settings, with presets and a guard for unsaved changes.
import { $, api, getJSON, showError } from "/assets/api.js";
import { state } from "/assets/state.js";

const PRESETS = {
  precise: { temperature: 0, top_k: 40, top_p: 0.95, min_p: 0.05, repeat_penalty: 1 },
  balanced: { temperature: 0.7, top_k: 40, top_p: 0.9, min_p: 0.05, repeat_penalty: 1.1 },
  creative: { temperature: 1.0, top_k: 80, top_p: 0.95, min_p: 0.02, repeat_penalty: 1.1 },
};

export async function loadSettings() {
  state.settings = await getJSON("/api/settings");
}

export function fillSettings() {
  const form = $("settings-form");
  const settings = state.settings;
  if (!settings) return;
  state.settingsDirty = false;
  $("settings-status").textContent = "";
  form.preset.value = settings.preset;
  for (const name of ["temperature", "top_k", "top_p", "min_p", "repeat_penalty", "max_tokens", "time_limit", "seed"]) form[name].value = settings[name];
  form.system_prompt.value = settings.system_prompt ?? "";
  form.show_thinking.checked = settings.show_thinking;
  form.voice_auto_send.checked = settings.voice_auto_send === true;
  $("settings-status").textContent = "";
}

async function saveSettings(event) {
  event.preventDefault();
  const form = $("settings-form");
  const number = (name) => Number(form[name].value);
  const settings = {
    preset: form.preset.value,
    temperature: number("temperature"), top_k: number("top_k"), top_p: number("top_p"), min_p: number("min_p"),
    repeat_penalty: number("repeat_penalty"), max_tokens: number("max_tokens"),
    // An emptied field is 0: a new seed for every answer.
    seed: form.seed.value === "" ? 0 : number("seed"),
    // An emptied field keeps the saved limit; 0 is "none".
    time_limit: form.time_limit.value === "" ? state.settings?.time_limit ?? 300 : number("time_limit"),
    system_prompt: form.system_prompt.value.trim() === "" ? null : form.system_prompt.value,
    show_thinking: form.show_thinking.checked,
    voice_auto_send: form.voice_auto_send.checked,
  };
  try {
    const response = await api("/api/settings", { method: "PUT", json: settings });
    state.settings = await response.json();
    state.settingsDirty = false;
    $("settings-status").textContent = "Saved.";
  } catch (error) {
    $("settings-status").textContent = "";
    showError(error.message);
  }
}

/// Whether the page may leave the settings for `next`: with unsaved changes, only when the user says so.
export function mayLeaveSettings(next) {
  if (next === "settings" || $("view-settings").hidden || !state.settingsDirty) return true;
  if (!window.confirm("Your settings have unsaved changes. Leave without saving them?")) return false;
  state.settingsDirty = false;
  return true;
}

export function wireSettings() {
  $("settings-form").addEventListener("submit", saveSettings);
  $("settings-form").addEventListener("input", () => {
    state.settingsDirty = true;
    $("settings-status").textContent = "Unsaved changes.";
  });
  window.addEventListener("beforeunload", (event) => { if (state.settingsDirty) event.preventDefault(); });
  $("settings-form").addEventListener("change", (event) => {
    const form = $("settings-form");
    if (event.target.name === "preset" && PRESETS[form.preset.value]) {
      for (const [name, value] of Object.entries(PRESETS[form.preset.value])) form[name].value = value;
    } else if (event.target.name in PRESETS.balanced) {
      form.preset.value = "custom";
    }
  });
}
