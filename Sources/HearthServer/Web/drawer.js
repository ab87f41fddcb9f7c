// The chats drawer. On a wide screen it is a column beside the chat; on a phone it slides over the page
// with a backdrop, and closes as people expect: the backdrop, Esc, a swipe to the left, its own close
// button, and any navigation. Focus moves into it when it opens and back to the ☰ button when it closes.
import { $ } from "/assets/api.js";

const app = () => $("app");
const phone = window.matchMedia("(max-width: 800px)");

export function isDrawerOpen() {
  return app().classList.contains("drawer-open");
}

export function openDrawer() {
  app().classList.add("drawer-open");
  $("drawer-toggle").setAttribute("aria-expanded", "true");
  if (phone.matches) {
    $("backdrop").hidden = false;
    // The page behind is out of reach while the drawer covers it.
    document.querySelector(".main").setAttribute("inert", "");
    ($("drawer").querySelector(".session-item.active") ?? $("new-chat")).focus();
  }
}

export function closeDrawer({ returnFocus = false } = {}) {
  const wasOpen = isDrawerOpen();
  app().classList.remove("drawer-open");
  $("drawer-toggle").setAttribute("aria-expanded", "false");
  $("backdrop").hidden = true;
  document.querySelector(".main").removeAttribute("inert");
  if (wasOpen && returnFocus && phone.matches) $("drawer-toggle").focus();
}

export function wireDrawer() {
  $("drawer-toggle").addEventListener("click", () => (isDrawerOpen() ? closeDrawer() : openDrawer()));
  $("drawer-close").addEventListener("click", () => closeDrawer({ returnFocus: true }));
  $("backdrop").addEventListener("click", () => closeDrawer({ returnFocus: true }));
  // Before the page's own Esc (which stops an answer), an open drawer on a phone closes.
  window.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && phone.matches && isDrawerOpen()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      closeDrawer({ returnFocus: true });
    }
  }, true);
  let touch = null;
  $("drawer").addEventListener("touchstart", (event) => {
    touch = { x: event.touches[0].clientX, y: event.touches[0].clientY };
  }, { passive: true });
  $("drawer").addEventListener("touchend", (event) => {
    if (!touch) return;
    const dx = event.changedTouches[0].clientX - touch.x;
    const dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (dx < -60 && Math.abs(dx) > Math.abs(dy) * 1.5) closeDrawer({ returnFocus: true });
  }, { passive: true });
  // Growing the window past phone size leaves no backdrop or inert page behind.
  phone.addEventListener("change", () => { if (!phone.matches) closeDrawer(); });
}
