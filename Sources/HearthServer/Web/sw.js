// Hearth's service worker. It shows the notifications Hearth pushes (Web Push) when no Hearth page is open, opens
// the page a notification is about when it is tapped, and keeps the app's own files so the app opens, and says
// Hearth cannot be reached, when the server is away. The API is never kept: what it answers is the user's data.
const SHELL = "hearth-shell-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The app's own files: the page, its styles, scripts, icons and manifest.
function isShell(url) {
  return url.origin === self.location.origin && (url.pathname === "/" || url.pathname.startsWith("/assets/")
    || url.pathname === "/manifest.webmanifest");
}

// The network first, so a new Hearth is always what runs; the kept copy only when the server cannot be reached.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || !isShell(url)) return;
  event.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(url.pathname === "/" ? "/" : event.request, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(url.pathname === "/" ? "/" : event.request);
      if (kept) return kept;
      throw error;
    }
  })());
});

// The page lists what it loaded before this worker ran, so those are kept too.
self.addEventListener("message", (event) => {
  const paths = (event.data?.keep ?? []).filter((path) => isShell(new URL(path, self.location.origin)));
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(paths)).catch(() => {}));
});

// A pushed notice is shown as text; the address it opens is one of this app's own pages, never another site.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data?.json() ?? {}; } catch { message = {}; }
  const title = typeof message.title === "string" && message.title ? message.title : "Hearth";
  const page = typeof message.url === "string" ? new URL(message.url, self.location.origin) : null;
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof message.body === "string" ? message.body : "",
    tag: typeof message.tag === "string" ? message.tag : undefined,
    icon: "/assets/icon-192.png",
    data: { url: page && page.origin === self.location.origin ? page.href : self.location.origin + "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = event.notification.data?.url ?? self.location.origin + "/";
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (open) {
      await open.navigate(target).catch(() => {});
      return open.focus();
    }
    return self.clients.openWindow(target);
  })());
});
