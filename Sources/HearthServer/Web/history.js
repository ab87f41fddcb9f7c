// The Settings page's import of chats from ChatGPT or Claude: the export file as it came, and what came of it.
import { $, api, attempt } from "/assets/api.js";
import { download } from "/assets/calendar.js";

/// What an import brought in, in words.
export function describeImport(report, from) {
  const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const parts = [`Imported ${plural(report.conversations, "chat")} from ${from}: ${report.messages} messages, `
    + `${plural(report.versions, "other version")} kept.`];
  if (report.already_imported) parts.push(`${report.already_imported} already imported, left as they were.`);
  const skipped = Object.entries(report.skipped ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (skipped.length) parts.push(`Not kept: ${skipped.map(([kind, count]) => `${count} ${kind}`).join(", ")}.`);
  if (report.remembered) parts.push(`${report.remembered} added to the memory.`);
  return parts.join(" ");
}

/// Wires the form; `imported` runs after each import (the chat list reloads).
export function wireHistoryImport(imported) {
  for (const format of ["md", "json"]) {
    $(`export-all-${format}`).addEventListener("click", attempt(async () => {
      download(await (await api(`/api/sessions/export?format=${format}`)).blob(), `hearth-chats.${format}`);
    }));
  }
  const form = $("history-import-form");
  form.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    const file = form.file.files[0];
    if (!file) return;
    const assistant = form.assistant.value;
    const from = form.assistant.selectedOptions[0].textContent;
    $("history-import-status").textContent = `Importing ${file.name}…`;
    try {
      const response = await api(`/api/import/${assistant}?memory=${form.memory.checked}`, {
        method: "POST", body: file, type: file.type || "application/octet-stream",
      });
      $("history-import-status").textContent = describeImport(await response.json(), from);
      form.reset();
      await imported?.();
    } catch (error) {
      $("history-import-status").textContent = "";
      throw error;
    }
  }));
}
