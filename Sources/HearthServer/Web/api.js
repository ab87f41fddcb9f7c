// What every page shares: the API client (with the key, when the server asks for one), notices, and a
// small helper to build elements without ever parsing text as HTML.

export const $ = (id) => document.getElementById(id);

export class APIError extends Error {}

/// A request to Hearth's API. `json` is sent as JSON; `body` as is, with `type` as its content type. A server
/// that cannot be reached is an `APIError` saying so in words (`unreachable` set), not the browser's
/// "Failed to fetch".
export async function api(path, { method = "GET", json, body, type, signal, keepalive = false, retried = false } = {}) {
  const headers = {};
  const key = localStorage.getItem("hearth.apiKey");
  if (key) headers.Authorization = `Bearer ${key}`;
  if (json !== undefined) headers["Content-Type"] = "application/json";
  else if (type) headers["Content-Type"] = type;
  const payload = json === undefined ? body : JSON.stringify(json);
  let response;
  try {
    response = await fetch(path, { method, headers, signal, body: payload, keepalive });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    const failure = new APIError("Hearth can't be reached. Is `hearth serve` still running on this machine? Nothing you typed is lost.");
    failure.unreachable = true;
    watchForReturn();
    throw failure;
  }
  if (response.status === 401 && !retried) {
    if (await askForKey()) return api(path, { method, json, body, type, signal, keepalive, retried: true });
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => null);
    const error = new APIError(answer?.error?.message ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    // The field the server found wrong, so a form can say so beside it.
    error.parameter = answer?.error?.param ?? null;
    throw error;
  }
  return response;
}

// One key dialog, however many requests are refused at once: they all wait for the same answer. It takes the
// server's key (kept in this browser) or a pairing code, which the server trades for a cookie of this device's own
// that no script can read; a wrong code is said in the dialog, which stays open.
let keyRequest = null;
function askForKey() {
  keyRequest ??= new Promise((resolve) => {
    const dialog = $("key-dialog");
    const form = $("key-form");
    const problem = $("key-problem");
    for (const id of ["key-input", "pairing-input", "pairing-name"]) $(id).value = "";
    problem.hidden = true;
    const finish = (entered) => {
      form.removeEventListener("submit", submit);
      keyRequest = null;
      dialog.close();
      resolve(entered);
    };
    const submit = async (event) => {
      event.preventDefault();
      const key = $("key-input").value.trim();
      const code = $("pairing-input").value.trim();
      if (key) {
        localStorage.setItem("hearth.apiKey", key);
        return finish(true);
      }
      if (!code) {
        problem.textContent = "Type the API key, or a pairing code.";
        problem.hidden = false;
        return;
      }
      const name = $("pairing-name").value.trim() || deviceName();
      const reply = await fetch("/api/devices/pair", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code, name }),
      }).catch(() => null);
      if (reply?.ok) {
        toast(`This device is paired as ${name}.`);
        return finish(true);
      }
      const answer = await reply?.json().catch(() => null);
      problem.textContent = answer?.error?.message ?? "Hearth can't be reached.";
      problem.hidden = false;
      $("pairing-input").focus();
    };
    form.addEventListener("submit", submit);
    // Cancel is not a submit button, so Enter in a field always means "use this".
    $("key-cancel").onclick = () => finish(false);
    dialog.addEventListener("cancel", () => finish(false), { once: true });
    dialog.showModal();
    $("key-input").focus();
  });
  return keyRequest;
}

// A name for a device that was given none: what kind of device the browser says it is on.
function deviceName() {
  const agent = navigator.userAgent;
  const kind = /iPhone/.test(agent) ? "iPhone" : /iPad/.test(agent) ? "iPad" : /Android/.test(agent) ? "Android device"
    : /Mac/.test(agent) ? "Mac" : /Windows/.test(agent) ? "Windows computer" : "Linux computer";
  return `${kind} (${new Date().toISOString().slice(0, 10)})`;
}

// While the server is unreachable, /health is asked every few seconds; when it answers, the notice goes.
let watching = null;
function watchForReturn() {
  if (watching) return;
  watching = setInterval(async () => {
    try {
      const reply = await fetch("/health");
      if (!reply.ok) return;
      clearInterval(watching);
      watching = null;
      if ($("banner").dataset.kind === "unreachable" && !$("banner").hidden) {
        // With something to send again, the notice stays with its Retry; otherwise it goes.
        if ($("banner-retry").hidden) $("banner").hidden = true;
        else $("banner-text").textContent = "Hearth can be reached again. Retry sends your message.";
        $("banner").dataset.kind = "back";
        toast("Hearth is back.");
      }
      window.dispatchEvent(new Event("hearth:back"));
    } catch {
      // Still away.
    }
  }, 3000);
}

/// Takes back every field's problem mark in `form` and hides `problem`, the line that said it.
export function clearFieldProblems(form, problem) {
  for (const field of form.querySelectorAll("[aria-invalid]")) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
  problem.hidden = true;
}

/// Says `message` beside the field it concerns: `field` marked invalid and described by `problem` (which has an
/// id), `problem` put after `place` (the field, or the label around it), and the focus on the field.
export function sayFieldProblem(field, problem, message, place = field) {
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", problem.id);
  problem.textContent = message;
  problem.hidden = false;
  place.after(problem);
  field.focus();
}

/// Draws a page (or part of one) from the server. What goes wrong is told with a Retry that draws it again, and
/// a page that could not be drawn because the server was away is drawn again by itself when it is back.
export function drawPage(draw) {
  return draw().catch((error) => {
    showError(error.message, { retry: () => drawPage(draw), unreachable: error.unreachable });
    if (error.unreachable) {
      window.addEventListener("hearth:back", () => {
        $("banner").hidden = true;
        drawPage(draw);
      }, { once: true });
    }
  });
}

export const getJSON = async (path) => (await api(path)).json();
export const sendJSON = async (path, method, json) => (await api(path, { method, json })).json();

/// Shows a notice above the chat; `retry`, when given, adds a button that runs it (and hides the notice).
export function showError(message, { retry, unreachable = false } = {}) {
  $("banner-text").textContent = message;
  const away = unreachable || /can't be reached/.test(message);
  $("banner").dataset.kind = away ? "unreachable" : "error";
  if (away) watchForReturn();
  const button = $("banner-retry");
  button.hidden = !retry;
  button.onclick = retry ? () => { $("banner").hidden = true; retry(); } : null;
  $("banner").hidden = false;
}

/// Asks before a step that deletes or removes, in the page's own dialog (the browser's confirm() looks like
/// another site's and stops the page); true when the user chose `action`. Cancel has the focus, and Esc is
/// Cancel too.
export function askFirst(question, action = "Delete") {
  const dialog = $("confirm-dialog");
  $("confirm-question").textContent = question;
  $("confirm-yes").textContent = action;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    $("confirm-cancel").focus();
  });
}

export function toast(message, { undo } = {}) {
  const element = $("toast");
  element.textContent = message;
  // A step that can be taken back says so where it is told, for a little longer.
  if (undo) {
    element.append(" ", el("button", { class: "link-button toast-undo", type: "button", onclick: attempt(async () => {
      element.hidden = true;
      await undo();
    }) }, "Undo"));
  }
  element.hidden = false;
  toast.delay = undo ? 8000 : 4000;
  toast.shownAt = Date.now();
  if (!toast.wired) {
    toast.wired = true;
    // It stays while the pointer or the keyboard is on it, so Undo can be reached at any pace.
    for (const name of ["mouseenter", "focusin"]) element.addEventListener(name, () => clearTimeout(toast.timer));
    for (const name of ["mouseleave", "focusout"]) element.addEventListener(name, () => hideToastLater(element));
  }
  hideToastLater(element);
}

// An Undo belongs to the page it was offered on: going to another page puts it away (not the page opened as
// part of the step that showed it, nor the same page again). Listened to from the start, so the page a toast
// was shown on is known.
let currentView = null;
window.addEventListener("hearth:view", (event) => {
  const moved = event.detail !== currentView;
  currentView = event.detail;
  const element = document.getElementById("toast");
  if (moved && element && !element.hidden && element.querySelector(".toast-undo") && Date.now() - (toast.shownAt ?? 0) > 300) {
    element.hidden = true;
  }
});

function hideToastLater(element) {
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { element.hidden = true; }, toast.delay);
}

/// `el("button", { class: "x", onclick }, "text", child)`: attributes, listeners (`on…`) and children;
/// strings become text nodes.
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    // Through the CSSOM: the page's policy forbids style attributes, not style properties.
    else if (name === "style") {
      for (const rule of value.split(";").filter(Boolean)) {
        const [property, ...rest] = rule.split(":");
        element.style.setProperty(property.trim(), rest.join(":").trim());
      }
    }
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return element;
}

/// Runs an action, showing its failure in the banner.
export function attempt(action) {
  return async (...args) => {
    try {
      return await action(...args);
    } catch (error) {
      showError(error.message);
    }
  };
}

/// Asks for files and sends each to `path` (`?name=` carries the file name when `withName`).
export function pickFiles({ accept, multiple = false, path, type, withName = false, done }) {
  const input = el("input", { type: "file", class: "file-picker", accept, multiple, hidden: true });
  input.addEventListener("change", attempt(async () => {
    const results = [];
    for (const file of input.files) {
      const target = withName ? `${path}?name=${encodeURIComponent(file.name)}` : path;
      results.push(await (await api(target, { method: "POST", body: await file.text(), type })).json());
    }
    input.remove();
    done(results);
  }));
  document.body.append(input);
  input.click();
}

/// A one-line account of an import: "3 contacts added, 1 replaced, 2 skipped (line 12: …)".
export function importSummary(summary) {
  let text = `${summary.added} ${summary.kind}s added, ${summary.replaced} replaced, ${summary.skipped.length} skipped`;
  if (summary.skipped.length) text += ` (line ${summary.skipped[0].line}: ${summary.skipped[0].reason}${summary.skipped.length > 1 ? ", …" : ""})`;
  return text;
}

// Dates as the profile's wall clock: "2026-12-01T09:00" strings, computed on in UTC so the browser's own
// zone never shifts them.
export const clock = {
  parse(text) {
    const [date, time = "00:00"] = text.split("T");
    const [y, m, d] = date.split("-").map(Number);
    const [hh, mm] = time.split(":").map(Number);
    return new Date(Date.UTC(y, m - 1, d, hh, mm));
  },
  format(date, withTime = true) {
    const iso = date.toISOString();
    return withTime ? iso.slice(0, 16) : iso.slice(0, 10);
  },
  addDays(date, days) { return new Date(date.getTime() + days * 86400000); },
  today() {
    const now = new Date();
    return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
  },
  /// The current minute on the user's clock, in the same form as `today`.
  now() { return clock.local(new Date()); },
  /// An instant as the user's clock reads it, in the same form as `today`.
  local(instant) {
    return new Date(Date.UTC(instant.getFullYear(), instant.getMonth(), instant.getDate(), instant.getHours(), instant.getMinutes()));
  },
  weekday(date) { return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][date.getUTCDay()]; },
  time(text) { return text.slice(11, 16); },
  month(date) { return months[date.getUTCMonth()]; },
  /// A day or a day and time (`2026-12-03`, `2026-12-03T18:00`) as people write it: "Thu 3 Dec, 18:00", the year
  /// added when it is not this one.
  readable(text) {
    const day = clock.parse(text.slice(0, 10));
    const year = day.getUTCFullYear() === clock.today().getUTCFullYear() ? "" : ` ${day.getUTCFullYear()}`;
    const date = `${clock.weekday(day)} ${day.getUTCDate()} ${clock.month(day)}${year}`;
    return text.length > 10 ? `${date}, ${text.slice(11, 16)}` : date;
  },
  /// A birthday (`1990-04-12`, or `--04-12` with no year) as people write it: "12 Apr 1990", "12 Apr".
  birthday(text) {
    const match = /^(?:(\d{4})|--)-?(\d{2})-(\d{2})$/.exec(text);
    if (!match) return text;
    const [, year, month, day] = match;
    return `${Number(day)} ${months[Number(month) - 1] ?? month}${year ? ` ${year}` : ""}`;
  },
  /// The days from `start` to `last` (both shown): "23 – 29 Nov 2026", "30 Nov – 6 Dec 2026".
  span(start, last) {
    const end = `${last.getUTCDate()} ${clock.month(last)} ${last.getUTCFullYear()}`;
    if (start.getUTCFullYear() !== last.getUTCFullYear()) return `${start.getUTCDate()} ${clock.month(start)} ${start.getUTCFullYear()} – ${end}`;
    if (start.getUTCMonth() !== last.getUTCMonth()) return `${start.getUTCDate()} ${clock.month(start)} – ${end}`;
    return `${start.getUTCDate()} – ${end}`;
  },
};

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Copies `text`. The clipboard API exists only on secure pages (https or localhost); elsewhere (a LAN address
/// over http) a hidden text area is selected and copied the old way. Resolves to whether it worked.
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Denied: fall through to the old way.
    }
  }
  const area = el("textarea", { class: "offscreen", readonly: true, "aria-hidden": "true" });
  area.value = text;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
}
