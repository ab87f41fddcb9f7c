"""What the web tests share: the server's address and the screenshot folder from the command line, the app's
JSON API, and a headless Chromium.

Usage of a test file: TEST.py BASE_URL [--screenshots DIR]
"""

import json
import os
import subprocess
import sys
import tempfile
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support import expected_conditions as EC

BASE_URL = sys.argv.pop(1) if len(sys.argv) > 1 else "http://127.0.0.1:8080"
SCREENSHOTS = None
if "--screenshots" in sys.argv:
    index = sys.argv.index("--screenshots")
    SCREENSHOTS = sys.argv[index + 1]
    del sys.argv[index : index + 2]


def api(path, method="GET", body=None):
    request = urllib.request.Request(BASE_URL + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def answered(session):
    """The chat's last answer once it is stored and no longer being written, else None: a condition to wait on, since a
    chat the page has just made may not hold its question and answer yet."""
    messages = api(f"/api/sessions/{session}")["messages"]
    return messages[-1] if len(messages) >= 2 and messages[-1]["state"] != "generating" else None


def chromium(width, height, *extra, env=None):
    """Debian's Chromium, headless, as root can run it, at the given window size; `env` replaces its environment
    (a HOME of the test's own gives it a certificate store of its own)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}", *extra):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=env), options=options)


def microphone_playing(clip):
    """Chromium's flags for a fake microphone that plays `clip` once (then a noise of its own), granted without
    asking, with sound allowed to play without a click."""
    return ("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={clip}%noloop", "--autoplay-policy=no-user-gesture-required")


def stop_answer(driver):
    """Stops the answer being written, as the Stop button does; an answer that ended first is left as it is."""
    stop = driver.find_element(By.ID, "stop")
    if stop.is_displayed():
        try:
            stop.click()
        except WebDriverException:
            pass  # the answer ended between the two calls


def shoot(driver, name, toast=False):
    """Saves a screenshot of the page when screenshots were asked for; a passing toast is left out unless wanted,
    so a picture shows the page and not the last step's message."""
    if not SCREENSHOTS:
        return
    os.makedirs(SCREENSHOTS, exist_ok=True)
    if not toast:
        driver.execute_script("const t = document.getElementById('toast'); if (t) t.hidden = true;")
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def readable_day(day, time=None):
    """A day (and a time) as the page writes it: "Thu 3 Dec, 08:05", the year added when it is not this one."""
    import datetime

    weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday()]
    month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][day.month - 1]
    year = "" if day.year == datetime.date.today().year else f" {day.year}"
    text = f"{weekday} {day.day} {month}{year}"
    return f"{text}, {time}" if time else text


def choose_in_question(test, containing=None):
    """Takes the step the page's own confirmation dialog asks about (Delete, Remove, Forget, Clear), after
    checking its question names `containing` and that Cancel, the safe choice, has the focus."""
    dialog = test.wait.until(EC.visibility_of_element_located((By.ID, "confirm-dialog")))
    if containing:
        test.assertIn(containing, dialog.text)
    test.assertEqual(test.driver.switch_to.active_element.get_attribute("id"), "confirm-cancel")
    dialog.find_element(By.ID, "confirm-yes").click()
    test.wait.until(EC.invisibility_of_element_located((By.ID, "confirm-dialog")))


def phone_size(driver, size):
    """Shows pages at `size` as a phone of that width does. Headless Chromium keeps its window at least 500 CSS
    pixels wide whatever it is asked, so a phone's width (390) is emulated as a phone's viewport; wider sizes are
    the window itself."""
    width, height = size
    if width < 500:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True}
        )
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def word_error_rate(heard, reference):
    """Word substitutions, deletions and insertions over the reference's words; case and punctuation ignored."""
    words = lambda text: "".join(c if c.isalnum() or c == "'" else " " for c in text.lower()).split()
    a, b = words(reference), words(heard)
    row = list(range(len(b) + 1))
    for i, word in enumerate(a):
        previous, row = row, [i + 1] + [0] * len(b)
        for j, other in enumerate(b):
            row[j + 1] = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (word != other))
    return row[len(b)] / len(a)


def spoken_timeline(path, parts):
    """A WAV file of sentences spoken by espeak-ng at given seconds from its start, silence between: what
    Chromium's fake microphone plays from the moment the page opens it."""
    import wave

    rate, frames = 22050, bytearray()
    with tempfile.TemporaryDirectory() as folder:
        for at, sentence in parts:
            clip = os.path.join(folder, "s.wav")
            subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", clip, sentence], check=True)
            with wave.open(clip) as spoken:
                assert spoken.getframerate() == rate and spoken.getsampwidth() == 2
                frames += bytes(max(0, int(at * rate) * 2 - len(frames)))
                frames += spoken.readframes(spoken.getnframes())
    frames += bytes(rate * 2 * 8)
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))


def installs_and_opens_offline(test, driver, wait):
    """Chromium's own verdict on installing the app open in `driver` (its manifest, icons and service worker); the
    worker keeps the page and the files it loaded (handed over once it runs); and with the network gone, the page
    opens again from that copy and says Hearth cannot be reached. Returns the manifest as DevTools read it."""
    wait.until(lambda d: d.execute_async_script(
        "const done = arguments[0]; navigator.serviceWorker.getRegistration().then((r) => done(Boolean(r && r.active)));"
    ))
    test.assertEqual(driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}), {"installabilityErrors": []})
    manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
    test.assertEqual(manifest["errors"], [])
    kept = (
        "const done = arguments[0]; caches.open('hearth-shell-v1').then((c) => c.keys())"
        ".then((keys) => done(keys.map((k) => new URL(k.url).pathname)));"
    )
    wait.until(lambda d: {"/", "/assets/app.js", "/assets/api.js", "/assets/app.css"} <= set(d.execute_async_script(kept)))
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    )
    driver.refresh()
    banner = wait.until(lambda d: d.execute_script(
        "const b = document.getElementById('banner'); return b && !b.hidden && document.getElementById('banner-text').textContent;"
    ))
    test.assertIn("can't be reached", banner)
    return manifest
