"""HTTPS as a phone meets it: Chromium reaches `hearth serve --tls` under a name that is not loopback, trusting the
profile's local authority through its own certificate store (NSS, where a user installs one), never by ignoring
certificate errors. There the app is a secure context, so the microphone works (a fake device); over plain HTTP
under the same name it is not. The QR code on /ca decodes, with a reader of another origin (zxing-cpp), to the
page's own address, and the fingerprint it shows is the certificate's.

A phone with no key pairs with a code from a trusted device, uses the app with a cookie no script can read, and
is refused at once when it is revoked. Paired, at a phone's width, it holds a hands-free conversation over HTTPS.
Over HTTPS the app is installable (Chromium's own check) and opens offline from its service worker's copy.

Usage: tls_test.py HTTPS_URL [--screenshots DIR]
  HEARTH_TLS_AUTHORITY  the local authority's certificate (PEM) in the server's profile
  HEARTH_TLS_KEY        the server's API key
  HEARTH_PLAIN_URL      a plain-HTTP server answering to the same name
"""

import base64
import hashlib
import json
import os
import shutil
import ssl
import struct
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request
import zlib

import zxingcpp
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from web_support import (
    BASE_URL, choose_in_question, chromium, installs_and_opens_offline, microphone_playing, phone_size, shoot,
    spoken_timeline, word_error_rate,
)

AUTHORITY = os.environ["HEARTH_TLS_AUTHORITY"]
KEY = os.environ["HEARTH_TLS_KEY"]
PLAIN_URL = os.environ["HEARTH_PLAIN_URL"]
NAME = urllib.parse.urlsplit(BASE_URL).hostname
PORT = urllib.parse.urlsplit(BASE_URL).port
# The name resolves to loopback in the browser alone: no DNS or hosts file is touched.
RESOLVE = f"--host-resolver-rules=MAP {NAME} 127.0.0.1"


def profile_home(trusting):
    """A HOME with an NSS certificate store of its own, holding the authority when `trusting`."""
    home = tempfile.mkdtemp()
    store = os.path.join(home, ".pki", "nssdb")
    os.makedirs(store)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    if trusting:
        subprocess.run(
            ["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "Hearth local authority", "-i", AUTHORITY],
            check=True,
        )
    return home


def browser(home, *extra):
    return chromium(1000, 900, RESOLVE, *extra, env={**os.environ, "HOME": home})


def keyed(path, method="GET", body=None):
    """The API with the server's key, over HTTPS trusting the authority (Python's own TLS)."""
    request = urllib.request.Request(
        f"https://127.0.0.1:{PORT}{path}", method=method, data=None if body is None else json.dumps(body).encode()
    )
    request.add_header("Authorization", f"Bearer {KEY}")
    request.add_header("Content-Type", "application/json")
    context = ssl.create_default_context(cafile=AUTHORITY)
    with urllib.request.urlopen(request, context=context, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


def png_to_gray(png):
    """The 8-bit grey levels of a PNG as Chromium writes screenshots (8-bit RGB or RGBA, not interlaced)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, data, header = 8, b"", None
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        body = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    grey = bytearray()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        grey.extend((line[i] + line[i + 1] + line[i + 2]) // 3 for i in range(0, stride, channels))
        previous = line
    return memoryview(bytes(grey)).cast("B", shape=[height, width])


class TLSTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = profile_home(trusting=True)
        cls.driver = browser(cls.home, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream")

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.home, ignore_errors=True)

    def microphone(self):
        return self.driver.execute_async_script(
            "const done = arguments[0];"
            "if (!navigator.mediaDevices) { done('no mediaDevices'); return; }"
            "navigator.mediaDevices.getUserMedia({audio: true})"
            ".then((stream) => { const n = stream.getAudioTracks().length; stream.getTracks().forEach((t) => t.stop()); done(n); })"
            ".catch((error) => done('refused: ' + error.name));"
        )

    def test_1_over_https_the_app_is_a_secure_context_and_the_microphone_works(self):
        self.driver.get(BASE_URL + "/")
        self.assertEqual(self.driver.execute_script("return location.protocol"), "https:")
        self.assertIn("Hearth", self.driver.title)
        self.assertTrue(self.driver.execute_script("return window.isSecureContext"))
        self.assertEqual(self.microphone(), 1)
        shoot(self.driver, "https-app")
        # The same name over plain HTTP is no secure context: the browser withholds the microphone.
        self.driver.get(PLAIN_URL + "/")
        self.assertEqual(self.driver.execute_script("return location.protocol"), "http:")
        self.assertFalse(self.driver.execute_script("return window.isSecureContext"))
        self.assertEqual(self.microphone(), "no mediaDevices")

    def test_2_a_browser_that_does_not_trust_the_authority_refuses_the_server(self):
        home = profile_home(trusting=False)
        driver = browser(home)
        try:
            driver.get(BASE_URL + "/")
            self.assertNotIn("Hearth", driver.title)
            self.assertIn("ERR_CERT_AUTHORITY_INVALID", driver.page_source)
        finally:
            driver.quit()
            shutil.rmtree(home, ignore_errors=True)

    def test_3_the_trust_page_codes_its_own_address_and_shows_the_certificates_fingerprint(self):
        self.driver.get(BASE_URL + "/ca")
        self.assertEqual(self.driver.title, "Hearth: trust this server")
        expected = f"https://{NAME}:{PORT}/ca"
        self.assertEqual(self.driver.find_element(By.ID, "phone-address").text, expected)
        shoot(self.driver, "trust-page")
        image = png_to_gray(self.driver.find_element(By.CSS_SELECTOR, "#address-code svg").screenshot_as_png)
        decoded = zxingcpp.read_barcodes(image)
        self.assertEqual([(code.format, code.text) for code in decoded], [(zxingcpp.BarcodeFormat.QRCode, expected)])
        # The certificate the page offers, fetched by Python's own TLS (OpenSSL) trusting the same file.
        context = ssl.create_default_context(cafile=AUTHORITY)
        with urllib.request.urlopen(f"https://127.0.0.1:{PORT}/ca/hearth-ca.crt", context=context, timeout=30) as reply:
            self.assertEqual(reply.headers["Content-Type"], "application/x-x509-ca-cert")
            der = reply.read()
        with open(AUTHORITY) as pem:
            self.assertEqual(der, ssl.PEM_cert_to_DER_cert(pem.read()))
        fingerprint = ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())
        self.assertEqual(self.driver.find_element(By.ID, "fingerprint").text, fingerprint)


    def test_4_a_phone_pairs_with_a_code_and_is_refused_at_once_when_revoked(self):
        home = profile_home(trusting=True)
        phone = browser(home)
        wait = WebDriverWait(phone, 30)
        try:
            phone.get(BASE_URL + "/")
            dialog = wait.until(EC.visibility_of_element_located((By.ID, "key-dialog")))
            # A wrong code is said in the dialog, which stays open.
            phone.find_element(By.ID, "pairing-input").send_keys("ZZZZ-ZZZZ")
            dialog.find_element(By.CSS_SELECTOR, "button[value=save]").click()
            problem = wait.until(EC.visibility_of_element_located((By.ID, "key-problem")))
            self.assertIn("wrong", problem.text)
            code = keyed("/api/devices/codes", "POST", {})["code"]
            field = phone.find_element(By.ID, "pairing-input")
            field.clear()
            field.send_keys(code.lower())
            phone.find_element(By.ID, "pairing-name").send_keys("Test phone")
            dialog.find_element(By.CSS_SELECTOR, "button[value=save]").click()
            wait.until(EC.invisibility_of_element_located((By.ID, "key-dialog")))
            fetch = "const done = arguments[0]; fetch('/api/sessions').then((r) => done(r.status), () => done(0));"
            self.assertEqual(phone.execute_async_script(fetch), 200)
            # The secret is a cookie no script can read, and no key was stored.
            self.assertNotIn("hearth_device", phone.execute_script("return document.cookie"))
            self.assertIsNone(phone.execute_script("return localStorage.getItem('hearth.apiKey')"))
            devices = keyed("/api/devices")["devices"]
            paired = [device for device in devices if device["name"] == "Test phone"]
            self.assertEqual(len(paired), 1)
            keyed(f"/api/devices/{paired[0]['id']}", "DELETE")
            self.assertEqual(phone.execute_async_script(fetch), 401)
            phone.get(BASE_URL + "/")
            wait.until(EC.visibility_of_element_located((By.ID, "key-dialog")))
        finally:
            phone.quit()
            shutil.rmtree(home, ignore_errors=True)


    def test_5_settings_makes_a_code_lists_the_device_and_revokes_it(self):
        self.wait = WebDriverWait(self.driver, 30)
        self.driver.get(BASE_URL + "/")
        self.driver.execute_script("localStorage.setItem('hearth.apiKey', arguments[0])", KEY)
        # Loaded again with the key: the dialog the first load opened goes with the page.
        self.driver.get(BASE_URL + "/#/settings")
        self.driver.refresh()
        self.wait.until(EC.element_to_be_clickable((By.ID, "pair-device"))).click()
        code = self.wait.until(EC.visibility_of_element_located((By.ID, "pairing-code-text"))).text
        # An API client pairs with it and gets a token of its own.
        request = urllib.request.Request(
            f"https://127.0.0.1:{PORT}/api/devices/pair", method="POST",
            data=json.dumps({"code": code, "name": "Kitchen script", "client": "api"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        context = ssl.create_default_context(cafile=AUTHORITY)
        with urllib.request.urlopen(request, context=context, timeout=30) as reply:
            token = json.loads(reply.read())["token"]
        # Shown again, Settings lists the device that paired since.
        self.driver.get(BASE_URL + "/#/models")
        self.driver.get(BASE_URL + "/#/settings")
        revoke = self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "[aria-label='Revoke Kitchen script']")))
        # Dates read as the rest of the app writes them: this year's, not the epoch's.
        listed = self.driver.find_element(By.CSS_SELECTOR, "#devices-list li").text
        self.assertNotIn("1970", listed)
        shoot(self.driver, "settings-devices")
        revoke.click()
        choose_in_question(self, containing="Kitchen script")
        self.wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, "[aria-label='Revoke Kitchen script']")))
        refused = urllib.request.Request(
            f"https://127.0.0.1:{PORT}/api/sessions", headers={"Authorization": f"Bearer {token}"}
        )
        with self.assertRaises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(refused, context=context, timeout=30)
        self.assertEqual(caught.exception.code, 401)
        self.driver.execute_script("localStorage.removeItem('hearth.apiKey')")

    def test_5b_settings_adds_an_app_password_a_calendar_app_signs_in_with(self):
        self.wait = WebDriverWait(self.driver, 30)
        self.driver.get(BASE_URL + "/")
        self.driver.execute_script("localStorage.setItem('hearth.apiKey', arguments[0])", KEY)
        self.driver.get(BASE_URL + "/#/settings")
        self.driver.refresh()
        name = self.wait.until(EC.element_to_be_clickable((By.ID, "app-password-name")))
        name.send_keys("Ana's iPhone calendar")
        self.driver.find_element(By.ID, "add-app-password").click()
        password = self.wait.until(EC.visibility_of_element_located((By.ID, "app-password-text"))).text
        self.assertTrue(password.startswith("hd_"), password)
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[aria-label=\"Revoke Ana's iPhone calendar\"]")))
        shoot(self.driver, "settings-app-password")
        # A calendar app signs in over HTTPS with any user name and that password, and finds the calendars.
        credentials = base64.b64encode(f"ana:{password}".encode()).decode()
        request = urllib.request.Request(
            f"https://127.0.0.1:{PORT}/dav/calendars/", method="PROPFIND",
            data=b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:propfind>',
            headers={"Authorization": f"Basic {credentials}", "Depth": "1", "Content-Type": "application/xml"},
        )
        context = ssl.create_default_context(cafile=AUTHORITY)
        with urllib.request.urlopen(request, context=context, timeout=30) as reply:
            self.assertEqual(reply.status, 207)
            self.assertIn("<d:displayname>Personal</d:displayname>", reply.read().decode())
        self.driver.execute_script("localStorage.removeItem('hearth.apiKey')")

    def test_6_hands_free_works_from_a_paired_phone_over_https(self):
        """A phone's whole voice loop over HTTPS: a paired device at a phone's width, its (fake) microphone heard by
        the server, the question transcribed and answered, the answer read aloud by Hearth's voice, then listening
        again."""
        question = "What is the capital of France?"
        home = profile_home(trusting=True)
        clip = os.path.join(home, "question.wav")
        spoken_timeline(clip, [(1.0, question)])
        settings = keyed("/api/settings")
        keyed("/api/settings", "PUT", {**settings, "preset": "precise", "temperature": 0, "max_tokens": 32})
        phone = browser(home, *microphone_playing(clip))
        phone_size(phone, (390, 844))
        wait = WebDriverWait(phone, 120, poll_frequency=0.05)
        session = None
        try:
            phone.get(BASE_URL + "/")
            dialog = wait.until(EC.visibility_of_element_located((By.ID, "key-dialog")))
            phone.find_element(By.ID, "pairing-input").send_keys(keyed("/api/devices/codes", "POST", {})["code"])
            phone.find_element(By.ID, "pairing-name").send_keys("Voice phone")
            dialog.find_element(By.CSS_SELECTOR, "button[value=save]").click()
            wait.until(EC.invisibility_of_element_located((By.ID, "key-dialog")))
            phone.execute_script(
                "window.phases = []; const status = document.getElementById('voice-status');"
                "new MutationObserver(() => { const phase = status.dataset.phase;"
                " if (phase && phase !== window.phases.at(-1)) window.phases.push(phase); })"
                ".observe(status, { attributes: true, attributeFilter: ['data-phase'] });"
            )
            wait.until(EC.element_to_be_clickable((By.ID, "talk"))).click()
            wait.until(lambda d: d.execute_script("return window.phases.slice(-2).join(' ')") == "speaking listening")
            phases = phone.execute_script("return window.phases")
            self.assertEqual(phases, ["starting", "listening", "hearing", "transcribing", "thinking", "speaking", "listening"])
            asked = phone.find_element(By.CSS_SELECTOR, ".message.user .bubble").text
            self.assertLessEqual(word_error_rate(asked, question), 0.35, asked)
            self.assertTrue(phone.find_element(By.CSS_SELECTOR, ".message.assistant .bubble").text.strip())
            spoken = phone.execute_script(
                "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/v1/audio/speech')"
                " && e.name.startsWith('https:')).length")
            self.assertGreaterEqual(spoken, 1)
            shoot(phone, "hands-free-phone")
            address = phone.execute_script("return location.hash")
            session = address.rsplit("/", 1)[-1] if address.startswith("#/s/") else None
            phone.find_element(By.ID, "talk").click()
        finally:
            phone.quit()
            keyed("/api/settings", "PUT", settings)
            for device in keyed("/api/devices")["devices"]:
                if device["name"] == "Voice phone":
                    keyed(f"/api/devices/{device['id']}", "DELETE")
            if session:
                keyed(f"/api/sessions/{session}", "DELETE")
            shutil.rmtree(home, ignore_errors=True)

    def test_7_over_https_the_app_is_installable_and_opens_offline(self):
        """Installed from the phone's browser over HTTPS (Chromium's own check of the manifest, icons and service
        worker), and opened again with the network gone: the worker's copy says Hearth cannot be reached."""
        home = profile_home(trusting=True)
        phone = browser(home)
        wait = WebDriverWait(phone, 30)
        try:
            phone.get(BASE_URL + "/")
            phone.execute_script("localStorage.setItem('hearth.apiKey', arguments[0])", KEY)
            phone.get(BASE_URL + "/#/")
            phone.refresh()
            installs_and_opens_offline(self, phone, wait)
            self.assertEqual(phone.execute_script("return location.protocol"), "https:")
        finally:
            phone.quit()
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
