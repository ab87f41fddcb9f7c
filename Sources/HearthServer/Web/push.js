// Notifications on this device (Settings): the service worker is registered on every page that can have one (a
// secure page), and the browser is subscribed to Hearth's pushes when the user asks, through the push service the
// browser chose. Hearth keeps only the subscription; what it pushes is a title, a line and a page to open.
import { $, api, attempt, getJSON, sendJSON, toast } from "/assets/api.js";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && window.isSecureContext;

/// Registers the service worker, and hands it the files this page loaded before it ran, to keep for offline.
export async function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return null;
  const registration = await navigator.serviceWorker.register("/sw.js");
  const ready = await navigator.serviceWorker.ready;
  const loaded = performance.getEntriesByType("resource").map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin).map((url) => url.pathname);
  ready.active?.postMessage({ keep: ["/", ...new Set(loaded)] });
  return registration;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

async function show() {
  const status = $("push-status");
  if (!supported()) {
    status.textContent = window.isSecureContext
      ? "This browser cannot receive pushed notifications."
      : "Notifications need HTTPS: open Hearth over https (see /ca).";
    $("push-subscribe").disabled = true;
    return;
  }
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  const { subscriptions } = await getJSON("/api/push/key");
  status.textContent = subscription
    ? `This device gets notifications, even with Hearth closed. ${subscriptions} device(s) in all.`
    : `This device gets no notifications yet. ${subscriptions} device(s) do.`;
  $("push-subscribe").textContent = subscription ? "Stop notifications here" : "Notify this device";
}

async function toggle() {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing) {
    await api("/api/push/subscriptions", { method: "DELETE", json: { endpoint: existing.endpoint } }).catch(() => {});
    await existing.unsubscribe();
    toast("This device no longer gets notifications.");
    return show();
  }
  if ((await Notification.requestPermission()) !== "granted") {
    $("push-status").textContent = "The browser was not allowed to show notifications; its site settings can allow them.";
    return;
  }
  const { public_key: publicKey } = await getJSON("/api/push/key");
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(publicKey) });
  // The browser's own subscription object, in the API's spelling.
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  await api("/api/push/subscriptions", { method: "POST", json: { endpoint, keys, expiration_time: expirationTime ?? null } });
  toast("This device gets notifications now.");
  return show();
}

/// Wires the Notifications part of Settings.
export async function wirePush() {
  $("push-subscribe").addEventListener("click", attempt(toggle));
  $("push-test").addEventListener("click", attempt(async () => {
    const report = await sendJSON("/api/push/test", "POST", {});
    $("push-status").textContent = report.sent
      ? `Sent to ${report.sent} device(s)${report.failed ? `; ${report.failed} could not be reached` : ""}.`
      : "No device gets notifications yet.";
  }));
  await show();
}
