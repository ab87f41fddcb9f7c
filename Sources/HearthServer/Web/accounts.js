// The Accounts page: calendars, task lists and address books on the user's own servers (CalDAV, CardDAV),
// added after their password was tried, each collection synced or not and one of each kind where new items go,
// with the last sync, its outcome in words, the local changes still waiting and the next sync; synced now, or
// removed.
import { $, api, askFirst, attempt, el, getJSON, sendJSON, toast } from "/assets/api.js";

const KINDS = { events: "calendar", todos: "task list", contacts: "address book" };

export async function showAccounts() {
  const { accounts } = await getJSON("/api/accounts");
  const syncAll = el("button", { class: "button", type: "button", id: "accounts-sync", onclick: attempt(async () => {
    syncAll.disabled = true;
    try {
      report(await sendJSON("/api/accounts/sync", "POST"));
    } finally {
      syncAll.disabled = false;
    }
    await showAccounts();
  }) }, "Sync now");
  const bar = el("div", { class: "page-bar" }, el("strong", { class: "page-title" }, "Accounts"),
    accounts.length ? syncAll : "");
  const list = el("div", { id: "account-list" },
    ...(accounts.length ? accounts.map(card) : [el("p", { class: "muted" }, "No accounts yet.")]));
  $("view-accounts").replaceChildren(bar,
    el("p", { class: "muted" }, "Hearth keeps these in step both ways: at start, every few minutes and soon after a change here. Use an app password (iCloud, Fastmail and Nextcloud make them in their settings)."),
    list, addForm());
}

/// What a sync did, as a toast: in words, with any item kept as a copy.
function report({ results }) {
  const failed = results.filter((result) => result.error);
  if (failed.length) return toast(failed.map((result) => result.error).join("; "));
  const lines = results.flatMap((result) => result.reports).filter((one) => one.copies.length);
  const moved = results.flatMap((result) => result.reports)
    .reduce((sum, one) => sum + one.added + one.changed + one.removed + one.created + one.updated + one.deleted, 0);
  toast(lines.length
    ? `Synced; kept as a copy: ${lines.flatMap((one) => one.copies).join(", ")}`
    : moved ? `Synced: ${moved} change${moved === 1 ? "" : "s"}` : "In step");
}

/// A date from the API (seconds since 1970 or ISO 8601).
const dateOf = (value) => new Date(value * 1000 || value);

/// When the next sync comes, in words: a time, "now", or why none is planned.
function nextSync({ nextSyncAt, syncing }) {
  if (syncing) return "Syncing now";
  if (!nextSyncAt) return "No sync planned: hearth serve is not running";
  const at = dateOf(nextSyncAt);
  return at <= new Date() ? "Next sync in a moment" : `Next sync ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

function card({ account, collections, waiting, next_sync_at: nextSyncAt, syncing }) {
  const last = account.last_sync_at ? dateOf(account.last_sync_at).toLocaleString() : null;
  const state = account.last_error ? `Last sync failed: ${account.last_error}` : last ? `Last sync ${last}` : "Not synced yet";
  const rows = collections.map((collection) => {
    const synced = el("input", { type: "checkbox", checked: collection.is_enabled, "aria-label": `Sync ${collection.display_name} (${KINDS[collection.content]})` });
    synced.addEventListener("change", attempt(async () => {
      await sendJSON(`/api/accounts/${encodeURIComponent(account.name)}/collections/${collection.id}`, "PATCH", { is_enabled: synced.checked });
      toast(synced.checked ? "Syncs" : "No longer synced; its items stay");
    }));
    const place = collection.content === "contacts" ? "contacts" : `“${collection.local_name}”`;
    const standard = collection.is_default
      ? el("span", { class: "muted" }, " · new items go here")
      : el("button", { class: "button small", type: "button", "aria-label": `New ${KINDS[collection.content]} items go to ${collection.display_name}`, onclick: attempt(async () => {
        await sendJSON(`/api/accounts/${encodeURIComponent(account.name)}/collections/${collection.id}`, "PATCH", { is_default: true });
        await showAccounts();
      }) }, "Make default");
    return el("li", { class: "collection" }, el("label", {}, synced, ` ${collection.display_name} `),
      el("span", { class: "muted" }, `(${KINDS[collection.content]}) → ${place}`), standard);
  });
  const name = encodeURIComponent(account.name);
  return el("section", { class: "account", "data-name": account.name },
    el("h3", {}, `${account.name} `, el("span", { class: "muted" }, `${account.service} · ${account.username}`)),
    el("p", { class: account.last_error ? "problem" : "muted" }, state,
      waiting ? ` · ${waiting} local change${waiting === 1 ? "" : "s"} waiting` : ""),
    el("p", { class: "muted next-sync" }, nextSync({ nextSyncAt, syncing })),
    el("ul", { class: "collections" }, ...rows),
    el("div", { class: "row" },
      el("button", { class: "button small", type: "button", "aria-label": `Sync ${account.name}`, onclick: attempt(async () => {
        report(await sendJSON(`/api/accounts/${name}/sync`, "POST"));
        await showAccounts();
      }) }, "Sync"),
      el("button", { class: "button small danger", type: "button", "aria-label": `Remove ${account.name}`, onclick: attempt(async () => {
        if (!(await askFirst(`Remove ${account.name}? Its items stay in Hearth, no longer synced.`, "Remove"))) return;
        await api(`/api/accounts/${name}`, { method: "DELETE" });
        toast("Removed");
        await showAccounts();
      }) }, "Remove")));
}

function addForm() {
  const field = (id, label, attributes) => el("label", { for: id }, label, el("input", { id, ...attributes }));
  const service = el("select", { id: "account-service", "aria-label": "Kind" },
    el("option", { value: "caldav" }, "Calendars and task lists (CalDAV)"),
    el("option", { value: "carddav" }, "Address books (CardDAV)"));
  const form = el("form", { class: "account-form", id: "account-form" },
    el("h3", {}, "Add an account"), service,
    field("account-url", "Server", { type: "url", required: true, placeholder: "https://caldav.fastmail.com" }),
    field("account-user", "User name", { type: "text", required: true, autocomplete: "username" }),
    field("account-password", "App password", { type: "password", required: true, autocomplete: "current-password" }),
    field("account-name", "Name here (optional)", { type: "text", placeholder: "the server's host" }),
    el("div", { class: "row" }, el("button", { class: "button primary", type: "submit" }, "Add")));
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const body = { service: service.value, url: $("account-url").value, username: $("account-user").value,
      password: $("account-password").value };
    if ($("account-name").value.trim()) body.name = $("account-name").value.trim();
    const added = await sendJSON("/api/accounts", "POST", body);
    toast(`Added ${added.account.name}: ${added.collections.length} collections`);
    await showAccounts();
  }));
  return form;
}
