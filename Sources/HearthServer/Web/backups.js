// The Settings page's backups: the schedule, where they go and how they are sealed, the backups there, and one
// taken now. Restoring needs Hearth stopped, so the page says the command instead of offering a button.
import { $, attempt, clock, el, getJSON, sendJSON } from "/assets/api.js";

function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function when(seconds) {
  return clock.readable(clock.format(clock.local(new Date(seconds * 1000))));
}

function render(view) {
  const form = $("backups-form");
  form.scheduled.checked = view.settings.scheduled;
  form.everyHours.value = view.settings.every_hours;
  form.folder.value = view.settings.folder ?? "";
  form.folder.placeholder = view.folder;
  form.passphraseFile.value = view.settings.passphrase_file ?? "";
  form.includesPasswords.checked = view.settings.includes_passwords;
  const items = view.backups.map((backup) => el("li", { "data-file": backup.file },
    el("strong", {}, when(backup.created)), ` · ${size(backup.bytes)}`,
    backup.encrypted ? " · encrypted" : " · not encrypted", " ",
    el("code", { class: "muted" }, backup.file)));
  $("backups-list").replaceChildren(items.length
    ? el("ul", {}, ...items)
    : el("p", { class: "muted" }, `No backups in ${view.folder} yet.`));
  const last = view.last;
  if (view.running) $("backups-status").textContent = "Taking a backup…";
  else if (last?.error) $("backups-status").textContent = `The last backup failed: ${last.error}`;
}

async function load() {
  render(await getJSON("/api/backups"));
}

/// Shows the backups and wires the form.
export async function wireBackups() {
  const form = $("backups-form");
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const view = await sendJSON("/api/backups/settings", "PUT", {
      scheduled: form.scheduled.checked, every_hours: Number(form.everyHours.value),
      folder: form.folder.value.trim(), passphrase_file: form.passphraseFile.value.trim(),
      includes_passwords: form.includesPasswords.checked,
    });
    render(view);
    $("backups-status").textContent = view.settings.scheduled
      ? `Saved: a backup every ${view.settings.every_hours} hours while Hearth runs.`
      : "Saved: no scheduled backups.";
  }));
  $("backup-now").addEventListener("click", attempt(async () => {
    const button = $("backup-now");
    button.disabled = true;
    $("backups-status").textContent = "Taking a backup…";
    try {
      const taken = await sendJSON("/api/backups", "POST", {});
      $("backups-status").textContent = `Backed up: ${size(taken.bytes)}${taken.encrypted ? ", encrypted" : ""}.`;
      await load();
    } catch (error) {
      $("backups-status").textContent = "";
      throw error;
    } finally {
      button.disabled = false;
    }
  }));
  await load();
}
