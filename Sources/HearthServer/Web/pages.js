// The pages beside the chat, by the name the navigation uses.
import { show as showCalendar, wire as wireCalendar } from "/assets/calendar.js";
import { showHabits } from "/assets/lists.js";
import { showReminders } from "/assets/reminders.js";
import { showAccounts } from "/assets/accounts.js";
import { showMemory } from "/assets/memory.js";
import { showContacts, showNotes } from "/assets/records.js";

/// The item a page was opened on (`#/notes/ID`, `#/memory/SOURCE`), taken by the page when it draws.
export const focus = {};

export const pages = {
  calendar: showCalendar,
  reminders: showReminders,
  notes: showNotes,
  habits: showHabits,
  contacts: showContacts,
  memory: showMemory,
  accounts: showAccounts,
};

export function wirePages() {
  wireCalendar();
}
