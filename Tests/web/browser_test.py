"""A real headless Chromium driving the web app served by `hearth serve`.

Usage: browser_test.py BASE_URL [--screenshots DIR]
"""

import json
import os
import sys
import time
import unittest
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

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


class WebAppTest(unittest.TestCase):
    """One walk through the app, in order: each step builds on the one before."""

    @classmethod
    def setUpClass(cls):
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860"):
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        cls.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        # Lists re-render as data arrives, so an element found in one poll may be gone by the next call;
        # the wait then simply polls again.
        cls.wait = WebDriverWait(
            cls.driver, 60, poll_frequency=0.02, ignored_exceptions=[StaleElementReferenceException]
        )
        # Greedy answers, long enough to be stopped: the walk does not depend on chance.
        settings = api("/api/settings")
        settings.update(preset="precise", temperature=0, max_tokens=600)
        api("/api/settings", "PUT", settings)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def shoot(self, name):
        if SCREENSHOTS:
            os.makedirs(SCREENSHOTS, exist_ok=True)
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))

    def send(self, text):
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        prompt.send_keys(text)
        prompt.send_keys(Keys.ENTER)

    def last_answer_text(self):
        answers = self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")
        return answers[-1].text if answers else ""

    def test_1_a_message_streams_in(self):
        self.driver.get(BASE_URL + "/")
        self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".empty-state")))
        self.send("What is the capital of France?")
        # The answer grows while it is generated: several different lengths are seen before it ends.
        lengths = set()
        deadline = time.time() + 60
        while time.time() < deadline:
            lengths.add(len(self.last_answer_text()))
            if self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant .stats"):
                break
            time.sleep(0.005)
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant .stats"), "the answer never finished")
        self.assertGreaterEqual(len(lengths - {0}), 3, f"text did not stream in: {sorted(lengths)}")
        self.assertIn("Paris", self.last_answer_text())
        self.assertIn("tokens/s", self.find(".message.assistant .stats").text)
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "capital of France"))
        self.shoot("chat")

    def test_2_a_generation_can_be_stopped(self):
        self.send("Count from 1 to 300, one number per line.")
        stop = self.wait.until(EC.element_to_be_clickable((By.ID, "stop")))
        self.wait.until(lambda _: len(self.last_answer_text()) > 12)
        stop.click()
        self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.assistant:last-child .notice"), "Stopped."))
        self.wait.until(EC.visibility_of_element_located((By.ID, "send")))
        kept = self.last_answer_text()
        self.assertTrue(kept.strip(), "the partial answer was not kept")
        self.assertNotIn("300", kept)

    def test_3_the_session_survives_a_reload(self):
        self.driver.get(BASE_URL + "/")
        item = self.wait.until(
            EC.element_to_be_clickable((By.XPATH, "//nav[@id='session-list']//button[contains(., 'capital of France')]"))
        )
        item.click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "capital of France"))
        bubbles = self.driver.find_elements(By.CSS_SELECTOR, ".message .bubble")
        self.assertEqual(len(bubbles), 4)
        self.assertIn("Paris", bubbles[1].text)
        self.assertIn("Stopped.", self.find(".message.assistant:last-child .notice").text)

    def test_4_search_finds_it(self):
        search = self.find("#search")
        search.send_keys("Paris")
        hit = self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#session-list .session-item .snippet mark")))
        self.assertEqual(hit.text.lower(), "paris")
        # Titles only: the word is in a message, not in the title.
        Select(self.find("#search-scope")).select_by_value("titles")
        self.wait.until(lambda _: self.find("#session-list .group-label").get_attribute("textContent") == "Nothing found")
        search.clear()
        search.send_keys("capital")
        self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#session-list .session-item")))
        self.shoot("search")
        Select(self.find("#search-scope")).select_by_value("all")
        search.clear()
        search.send_keys(Keys.BACKSPACE)

    def test_5_rename_and_pin(self):
        self.find("#rename").click()
        field = self.wait.until(EC.visibility_of_element_located((By.ID, "rename-input")))
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("Geography questions", Keys.ENTER)
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "Geography questions"))
        self.find("#pin").click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "pin"), "Unpin"))
        self.wait.until(lambda _: "Pinned" in self.find("#session-list").get_attribute("textContent"))
        sessions = api("/api/sessions")["sessions"]
        self.assertEqual([(s["title"], s["is_pinned"]) for s in sessions], [("Geography questions", True)])
        self.driver.refresh()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "Geography questions"))
        self.shoot("sessions")

    def test_6_settings_models_and_diagnostics(self):
        self.find(".nav-link[data-view='settings']").click()
        self.wait.until(EC.visibility_of_element_located((By.ID, "view-settings")))
        self.find("input[name='preset'][value='creative']").click()
        self.assertEqual(self.find("input[name='temperature']").get_attribute("value"), "1")
        self.find("#settings-form button[type='submit']").click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "settings-status"), "Saved."))
        self.assertEqual(api("/api/settings")["preset"], "creative")
        self.find("#advanced summary").click()
        self.shoot("settings")
        self.find(".nav-link[data-view='models']").click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "models"), "loaded"))
        self.assertIn("SmolLM2-135M-Instruct.Q4_1.gguf", self.find("#models").text)
        self.shoot("models")
        self.find(".nav-link[data-view='diagnostics']").click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "diagnostics"), "Messages"))
        text = self.find("#diagnostics").text
        self.assertNotIn("Paris", text)
        self.assertNotIn("Geography", text)
        self.shoot("diagnostics")

    def test_7_model_output_cannot_inject_markup(self):
        rendered = self.driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            import('/assets/markdown.js').then(({ renderMarkdown }) => {
              const box = document.createElement('div');
              box.append(renderMarkdown(
                '<img src=x onerror="window.injected=1"> **bold**\\n\\n' +
                '[click](javascript:window.injected=2) ![pic](http://example.com/p.png)\\n\\n' +
                '```js\\n<script>window.injected=3</script>\\n```'));
              done({
                images: box.querySelectorAll('img').length,
                scripts: box.querySelectorAll('script').length,
                links: [...box.querySelectorAll('a')].map(a => a.getAttribute('href')),
                strong: box.querySelectorAll('strong').length,
                code: box.querySelector('pre code')?.textContent,
                injected: window.injected ?? null,
              });
            });
            """
        )
        self.assertEqual(rendered["images"], 0)
        self.assertEqual(rendered["scripts"], 0)
        self.assertEqual(rendered["links"], ["http://example.com/p.png"])
        self.assertEqual(rendered["strong"], 1)
        self.assertEqual(rendered["code"], "<script>window.injected=3</script>")
        self.assertIsNone(rendered["injected"])

    def test_8_dark_theme_and_narrow_screen(self):
        self.find(".nav-link[data-view='settings']").click()
        self.driver.execute_script("localStorage.setItem('hearth.theme', 'dark')")
        self.driver.set_window_size(420, 860)
        self.driver.get(BASE_URL + "/")
        self.wait.until(EC.element_to_be_clickable((By.ID, "drawer-toggle"))).click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-list"), "Geography questions"))
        time.sleep(0.3)  # the drawer slides in
        self.shoot("mobile-dark")
        self.driver.execute_script("localStorage.removeItem('hearth.theme')")
        self.driver.set_window_size(1280, 860)


if __name__ == "__main__":
    unittest.main(verbosity=2, failfast=True)
