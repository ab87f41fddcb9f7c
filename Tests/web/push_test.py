"""Web Push through the real path: a push service on loopback (a small HTTP server of the test's own) receives what
`hearth serve` pushes, and the test reads it as a browser would, with a receiver written here apart from Hearth's
sender (Python's `cryptography`: ECDH, HKDF and AES-GCM per RFC 8291), first proven on the RFC's own example. The
VAPID token (RFC 8292) is checked against the key Hearth publishes. A test notification and a reminder coming due
both arrive; a push service's 410 makes Hearth forget the subscription; an answer that finishes after its page went
out of sight and dropped its connection is written to its end and pushed, opening its chat. In Chromium, the service worker shows a
pushed payload as a notification (delivered through DevTools, since no public push service can be reached here),
and the app is installable (Chromium's own check) and opens from the worker's copy with the network off, saying
Hearth cannot be reached.

Usage: push_test.py BASE_URL  (the server must allow private networks: the push service is on loopback)
"""

import base64
import datetime
import http.server
import json
import os
import socket
import threading
import time
import unittest
import urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from web_support import BASE_URL, api, chromium, installs_and_opens_offline


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decrypt(body, private_key, auth_secret):
    """RFC 8291 from the receiving side: one aes128gcm record (RFC 8188)."""
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    sender_public = body[21 : 21 + id_length]
    ciphertext = body[21 + id_length :]
    assert record_size >= len(ciphertext), record_size
    receiver_public = private_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    shared = private_key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public))
    key_material = HKDF(
        hashes.SHA256(), 32, salt=auth_secret, info=b"WebPush: info\0" + receiver_public + sender_public
    ).derive(shared)
    key = HKDF(hashes.SHA256(), 16, salt=salt, info=b"Content-Encoding: aes128gcm\0").derive(key_material)
    nonce = HKDF(hashes.SHA256(), 12, salt=salt, info=b"Content-Encoding: nonce\0").derive(key_material)
    padded = AESGCM(key).decrypt(nonce, ciphertext, None)
    assert padded.rstrip(b"\0").endswith(b"\x02"), "the last record ends with the delimiter 2"
    return padded.rstrip(b"\0")[:-1]


class PushService(http.server.ThreadingHTTPServer):
    """Records every push; answers with the status the test sets."""

    def __init__(self):
        self.received, self.status, self.arrived = [], 201, threading.Condition()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(handler):
                body = handler.rfile.read(int(handler.headers["Content-Length"]))
                with self.arrived:
                    self.received.append((handler.path, dict(handler.headers), body))
                    self.arrived.notify_all()
                handler.send_response(self.status)
                if self.status in (301, 302, 307, 308):
                    handler.send_header("Location", f"http://127.0.0.1:{self.server_address[1]}/push/elsewhere")
                handler.send_header("Content-Length", "0")
                handler.end_headers()

            def log_message(handler, *arguments):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def wait_for(self, count, seconds):
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, seconds)
            return list(self.received)


class CuttableProxy:
    """A loopback TCP proxy to the server whose open connections the test can cut, as a phone's network drops."""

    def __init__(self, upstream_port):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port, self.upstream, self.open, self.lock = self.listener.getsockname()[1], upstream_port, [], threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            with self.lock:
                self.open += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self.pump, args=(source, target), daemon=True).start()

    @staticmethod
    def pump(source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        with self.lock:
            cut, self.open = self.open, []
        for connection in cut:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            connection.close()

    def close(self):
        self.listener.close()
        self.cut()


class PushTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = PushService()
        cls.private_key = ec.generate_private_key(ec.SECP256R1())
        cls.auth = os.urandom(16)
        cls.endpoint = f"http://127.0.0.1:{cls.service.server_address[1]}/push/device-1"
        public = cls.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        cls.subscription = {"endpoint": cls.endpoint, "expiration_time": None, "keys": {"p256dh": b64(public), "auth": b64(cls.auth)}}

    @classmethod
    def tearDownClass(cls):
        cls.service.shutdown()

    def test_0_the_receiver_reads_the_rfcs_own_example(self):
        private = ec.derive_private_key(
            int.from_bytes(unb64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"), "big"), ec.SECP256R1()
        )
        body = unb64(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK"
            "6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        self.assertEqual(decrypt(body, private, unb64("BTBZMqHH6r4Tts7J_aSIgg")), b"When I grow up, I want to be a watermelon")

    def check_push(self, path, headers, body, public_key):
        self.assertEqual(path, "/push/device-1")
        self.assertEqual(headers["Content-Encoding"], "aes128gcm")
        self.assertTrue(0 < int(headers["TTL"]) <= 86400 * 28)
        scheme, _, parameters = headers["Authorization"].partition(" ")
        self.assertEqual(scheme, "vapid")
        fields = dict(part.strip().split("=", 1) for part in parameters.split(","))
        self.assertEqual(fields["k"], public_key)
        header, claims, signature = fields["t"].split(".")
        self.assertEqual(json.loads(unb64(header)), {"typ": "JWT", "alg": "ES256"})
        claims = json.loads(unb64(claims))
        self.assertEqual(claims["aud"], f"http://127.0.0.1:{self.service.server_address[1]}")
        self.assertTrue(time.time() < claims["exp"] <= time.time() + 24 * 3600)
        self.assertTrue(claims["sub"].startswith("mailto:") or claims["sub"].startswith("https:"))
        raw = unb64(signature)
        verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
        verifier.verify(
            encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
            f"{header}.{fields['t'].split('.')[1]}".encode(), ec.ECDSA(hashes.SHA256()),
        )
        return json.loads(decrypt(body, self.private_key, self.auth))

    def test_1_a_test_notification_and_a_reminder_coming_due_arrive_encrypted_and_signed(self):
        public_key = api("/api/push/key")["public_key"]
        api("/api/push/subscriptions", "POST", self.subscription)
        self.assertEqual(api("/api/push/test", "POST", {}), {"sent": 1, "failed": 0, "removed": 0})
        path, headers, body = self.service.wait_for(1, 10)[0]
        message = self.check_push(path, headers, body, public_key)
        self.assertEqual(message["title"], "Hearth")
        # A reminder coming due at the next minute is pushed when it does (the notice scheduler looks every 15 s).
        due = (datetime.datetime.now() + datetime.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
        api("/api/reminders", "POST", {"title": "Water the ferns", "due": due})
        deadline = time.time() + 100
        titles = []
        while time.time() < deadline and "Water the ferns" not in titles:
            received = self.service.wait_for(len(titles) + 2, 5)
            titles = [self.check_push(*entry, public_key)["title"] for entry in received[1:]]
        self.assertIn("Water the ferns", titles)
        pushed = [self.check_push(*entry, public_key) for entry in self.service.received[1:]]
        ferns = next(message for message in pushed if message["title"] == "Water the ferns")
        self.assertEqual(ferns["url"], "/#/reminders")
        self.assertEqual(set(ferns), {"title", "body", "url", "tag"})

    def test_2_a_subscription_its_push_service_says_is_gone_is_forgotten(self):
        api("/api/push/subscriptions", "POST", self.subscription)
        self.service.status = 410
        try:
            self.assertEqual(api("/api/push/test", "POST", {})["removed"], 1)
            self.assertEqual(api("/api/push/test", "POST", {}), {"sent": 0, "failed": 0, "removed": 0})
        finally:
            self.service.status = 201

    def test_2b_a_push_service_that_redirects_is_not_followed(self):
        api("/api/push/subscriptions", "POST", self.subscription)
        before = len(self.service.received)
        self.service.status = 307
        try:
            self.assertEqual(api("/api/push/test", "POST", {}), {"sent": 0, "failed": 1, "removed": 0})
        finally:
            self.service.status = 201
        # One request, to the subscription's own address; nothing went where the redirect pointed.
        self.assertEqual([path for path, _, _ in self.service.received[before:]], ["/push/device-1"])
        self.service.status = 410
        try:
            api("/api/push/test", "POST", {})
        finally:
            self.service.status = 201

    def test_3_the_service_worker_shows_a_pushed_notice(self):
        driver = chromium(1000, 800)
        try:
            driver.get(BASE_URL + "/")
            origin = BASE_URL.rstrip("/")
            driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})
            WebDriverWait(driver, 30).until(lambda d: d.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.getRegistration().then((r) => done(Boolean(r && r.active)));"
            ))
            payload = json.dumps({"title": "Dentist at 14:00", "body": "in 15 minutes", "url": "https://evil.example/", "tag": "t1"})
            # The registration's id is Chromium's own counter in this fresh profile; a push to an id that is not
            # there is dropped, so the one registration gets it once.
            driver.execute_cdp_cmd("ServiceWorker.enable", {})
            for registration in range(4):
                driver.execute_cdp_cmd(
                    "ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": str(registration), "data": payload}
                )
            shown = WebDriverWait(driver, 20).until(lambda d: d.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => r.getNotifications())"
                ".then((list) => done(list.map((n) => [n.title, n.body, n.data.url])));"
            ))
            # Shown as text; the address it would open is the app's own, never the site the payload named.
            self.assertEqual(shown, [["Dentist at 14:00", "in 15 minutes", origin + "/"]])
        finally:
            driver.quit()


    def test_4_the_app_is_installable_and_opens_without_the_network_saying_hearth_cannot_be_reached(self):
        driver = chromium(1000, 800)
        try:
            driver.get(BASE_URL + "/")
            manifest = installs_and_opens_offline(self, driver, WebDriverWait(driver, 30))
            shortcuts = [(item["name"], item["url"]) for item in json.loads(manifest["data"])["shortcuts"]]
            self.assertEqual(shortcuts, [("New chat", "/"), ("Today", "/#/calendar"), ("Add a reminder", "/#/reminders")])
            self.assertEqual(driver.title, "Hearth")
        finally:
            driver.quit()

    @staticmethod
    def ask_then_look_away(driver, wait):
        """Asks a long question; while the answer is being written, the page goes out of sight as a phone's does
        when it locks (`window.seen = 'visible'` and a visibilitychange bring it back), and tells the server so.
        Returns the chat's id."""
        prompt = wait.until(lambda d: d.find_element(By.ID, "prompt"))
        prompt.send_keys("Write a long essay about the history of Rome.")
        prompt.send_keys(Keys.ENTER)
        wait.until(lambda d: d.execute_script(
            "const a = document.querySelector('.message.assistant:last-child .bubble');"
            " return !document.getElementById('stop').hidden && a && a.textContent.trim().length > 5"
        ))
        session = driver.execute_script("return location.hash").rsplit("/", 1)[-1]
        driver.execute_script(
            "window.seen = 'hidden';"
            "Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.seen });"
            "Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.seen === 'hidden' });"
            "document.dispatchEvent(new Event('visibilitychange'));"
        )
        wait.until(lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/away') && e.responseStatus === 204)"
        ))
        return session

    def test_5_an_answer_that_finishes_while_its_page_is_hidden_is_pushed_and_opens_its_chat(self):
        public_key = api("/api/push/key")["public_key"]
        api("/api/push/subscriptions", "POST", self.subscription)
        before = len(self.service.received)
        driver = chromium(1000, 800)
        try:
            driver.get(BASE_URL + "/")
            session = self.ask_then_look_away(driver, WebDriverWait(driver, 60))
            # Then its connection drops, as the browser is closed.
        finally:
            driver.quit()
        deadline = time.time() + 120
        pushed = []
        while time.time() < deadline and not any(message["title"] == "Your answer is ready" for message in pushed):
            received = self.service.wait_for(before + len(pushed) + 1, 5)
            pushed = [self.check_push(*entry, public_key) for entry in received[before:]]
        ready = next(message for message in pushed if message["title"] == "Your answer is ready")
        # The chat's title and where it is, nothing of what was said.
        self.assertEqual(ready["url"], f"/#/s/{session}")
        title = api(f"/api/sessions/{session}")["session"]["title"]
        self.assertEqual(ready["body"], title)
        self.assertEqual(set(ready), {"title", "body", "url", "tag"})
        # Written to its end, though the page left: stored whole, not stopped.
        stored = api(f"/api/sessions/{session}")["messages"][-1]
        self.assertEqual((stored["role"], stored["state"]), ("assistant", "complete"), stored)

    def test_6_a_page_whose_connection_dropped_while_hidden_shows_the_whole_answer_when_seen_again(self):
        proxy = CuttableProxy(int(BASE_URL.rstrip("/").rsplit(":", 1)[1]))
        driver = chromium(1000, 800)
        try:
            driver.get(f"http://127.0.0.1:{proxy.port}/")
            wait = WebDriverWait(driver, 90)
            session = self.ask_then_look_away(driver, wait)
            # The network drops while the page is out of sight, cutting the answer's stream.
            proxy.cut()
            wait.until(lambda d: d.execute_script("return document.getElementById('stop').hidden"))
            self.assertTrue(api(f"/api/sessions/{session}")["messages"][-1]["state"] == "generating", "it ended first")
            stored = wait.until(lambda _: (lambda m: m if m["state"] != "generating" else None)(
                api(f"/api/sessions/{session}")["messages"][-1]))
            self.assertEqual(stored["state"], "complete", stored)
            # Seen again, the page shows the answer as the server finished it, with no error about the connection.
            driver.execute_script("window.seen = 'visible'; document.dispatchEvent(new Event('visibilitychange'));")
            shown = wait.until(lambda d: d.execute_script(
                "const a = document.querySelector('.message.assistant:last-child');"
                " return a && a.dataset.id === arguments[0] && !a.querySelector('.bubble.cursor')"
                " && a.querySelector('.bubble').textContent", stored["id"]
            ))
            # Compared by letters and digits: the page draws the Markdown (headings, paragraphs) the store keeps.
            letters = lambda text: "".join(c for c in text if c.isalnum())
            self.assertIn(letters(shown)[:150], letters(stored["content"]), (shown[:200], stored["content"][:200]))
            self.assertGreater(len(letters(shown)), 0.8 * len(letters(stored["content"])), "the whole answer is shown")
            self.assertNotIn("connection to Hearth was lost", driver.find_element(By.TAG_NAME, "body").text)
        finally:
            driver.quit()
            proxy.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
