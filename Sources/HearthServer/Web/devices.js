// The Settings page's devices: the phones and computers paired with a code, each renamed or revoked on its own,
// and a new code for one more. The code is shown here only; the server keeps its hash.
import { $, askFirst, attempt, clock, el, getJSON, sendJSON, api, toast } from "/assets/api.js";

// The API writes instants as seconds since 1970.
function when(seconds) {
  return clock.readable(clock.format(clock.local(new Date(seconds * 1000))));
}

function row(device) {
  const used = device.last_used_at ? `last used ${when(device.last_used_at)}` : "not used yet";
  const rename = attempt(async () => {
    const field = el("input", { value: device.name, maxlength: "80", "aria-label": `New name for ${device.name}` });
    const save = attempt(async (event) => {
      event.preventDefault();
      await sendJSON(`/api/devices/${device.id}`, "PATCH", { name: field.value.trim() });
      await load();
    });
    item.replaceChildren(el("form", { class: "inline-form", onsubmit: save }, field,
      el("button", { class: "button small primary", type: "submit" }, "Save"),
      el("button", { class: "button small", type: "button", onclick: () => load() }, "Cancel")));
    field.focus();
  });
  const revoke = attempt(async () => {
    if (!(await askFirst(`Revoke ${device.name}? It can no longer reach Hearth until it is paired again.`, "Revoke"))) return;
    await api(`/api/devices/${device.id}`, { method: "DELETE" });
    toast(`${device.name} can no longer reach Hearth.`);
    await load();
  });
  const item = el("li", { class: "device", "data-device": device.id },
    el("strong", {}, device.name), device.current ? el("span", { class: "muted" }, " · this device") : "",
    device.is_app_password ? el("span", { class: "muted" }, " · app password (calendars and contacts only)") : "",
    el("span", { class: "muted" }, ` · paired ${when(device.created_at)} · ${used} `),
    el("button", { class: "button small", type: "button", onclick: rename, "aria-label": `Rename ${device.name}` }, "Rename"),
    el("button", { class: "button small danger", type: "button", onclick: revoke, "aria-label": `Revoke ${device.name}` }, "Revoke"));
  return item;
}

/// Lists the paired devices again (a device may have paired from elsewhere since the page was drawn).
export async function loadDevices() {
  return load();
}

async function load() {
  const { devices } = await getJSON("/api/devices");
  $("devices-list").replaceChildren(devices.length
    ? el("ul", { class: "devices" }, ...devices.map(row))
    : el("p", { class: "muted" }, "No devices are paired. This browser reaches Hearth with the server's key or from this machine."));
}

/// Shows the paired devices and wires "Pair a device".
export async function wireDevices() {
  $("pair-device").addEventListener("click", attempt(async () => {
    const made = await sendJSON("/api/devices/codes", "POST", {});
    $("pairing-code").replaceChildren(el("code", { id: "pairing-code-text" }, made.code),
      ` — type it on the new device where Hearth asks for its key, before ${when(made.expires_at)}. It works once.`);
  }));
  $("add-app-password").addEventListener("click", attempt(async () => {
    const name = $("app-password-name").value.trim() || "Calendar app";
    const made = await sendJSON("/api/devices/app-passwords", "POST", { name });
    const server = `${location.origin}/`;
    $("app-password").replaceChildren(
      el("span", {}, `${made.device.name}: server `), el("code", {}, server),
      el("span", {}, ", any user name, password "), el("code", { id: "app-password-text" }, made.password),
      el("span", {}, ". Copy it now: it is not shown again."));
    $("app-password-name").value = "";
    await load();
  }));
  await load();
}
