"""The web app as people expect a chat app to behave, in a real headless Chromium against `hearth serve`:
the phone drawer, Markdown rendering, errors that keep what was typed, chats that answer side by side,
regenerate / edit / continue with every version kept, shortcuts, and automated checks of contrast (WCAG AA) and touch-target size.

Usage: polish_test.py BASE_URL [--screenshots DIR]
"""

import datetime
import json
import os
import time
import unittest
import urllib.error
import urllib.request
import uuid

from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from web_support import BASE_URL, api, choose_in_question, chromium, phone_size, readable_day, shoot, stop_answer

PHONE = (390, 844)
DESKTOP = (1280, 800)


# Contrast of every visible piece of text against what is really behind it (WCAG 2 relative luminance;
# AA: 4.5:1, 3:1 for large text); disabled controls are exempt, as WCAG allows.
CONTRAST_CHECK = r"""
const parse = (text) => {
  let m = text.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/);
  if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
  m = text.match(/color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/);
  if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
  return null;
};
const blend = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
const background = (element) => {
  const layers = [];
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
    const color = parse(getComputedStyle(node).backgroundColor);
    if (color && color[3] > 0) { layers.push(color); if (color[3] >= 1) break; }
  }
  let result = [255, 255, 255, 1];
  for (const layer of layers.reverse()) result = blend(layer, result);
  return result;
};
const luminance = ([r, g, b]) => {
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};
const failures = [];
for (const element of document.querySelectorAll("body *")) {
  if (!element.checkVisibility?.({ opacityProperty: true, visibilityProperty: true })) continue;
  if (element.closest("[disabled], [inert], dialog:not([open])")) continue;
  const ownText = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!ownText) continue;
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) continue;
  const style = getComputedStyle(element);
  const fore = parse(style.color);
  if (!fore) continue;
  const back = background(element);
  const text = blend(fore, back);
  const [a, b] = [luminance(text), luminance(back)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && +style.fontWeight >= 700);
  if (ratio < (large ? 3 : 4.5)) {
    failures.push(`${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""}.${element.className} "${element.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
  }
}
return failures;
"""

# Every control a finger can reach on a phone is at least 44 × 44 CSS pixels (text fields at least 44 tall; check
# boxes and radio buttons too); links inside running text are exempt, as WCAG allows for inline targets.
TARGET_CHECK = r"""
const failures = [];
const controls = "button, select, input, textarea, a.icon-button, .nav-link, .session-item, [role=button]";
for (const element of document.querySelectorAll(controls)) {
  if (!element.checkVisibility?.({ opacityProperty: true, visibilityProperty: true })) continue;
  if (element.closest("[inert], dialog:not([open])") || element.disabled) continue;
  if (element.matches(".bubble *, .sources *")) continue;
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) continue;
  const box = element.matches("input[type=checkbox], input[type=radio]");
  const wide = element.matches("input, textarea, select") && !box ? true : rect.width >= 44;
  if (!wide || rect.height < 44) {
    failures.push(`${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""}.${element.className} "${(element.textContent || element.value || "").trim().slice(0, 20)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`);
  }
}
return failures;
"""

# Nothing a finger uses runs off a phone's screen: every visible control lies within the page's width (unless it
# is in one of the strips made to scroll sideways: the week, the chat's actions, the pinned prompts), and a button's
# label keeps to one line.
FIT_CHECK = r"""
const failures = [];
const scrollsSideways = (element) => Boolean(element.closest(".week, .session-actions, .pinned-prompts"));
for (const element of document.querySelectorAll("button, select, input, textarea, a.icon-button, .nav-link")) {
  if (!element.checkVisibility?.({ opacityProperty: true, visibilityProperty: true })) continue;
  if (element.closest("[inert], dialog:not([open]), .bubble")) continue;
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) continue;
  const name = `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""} "${(element.textContent || element.value || "").trim().slice(0, 24)}"`;
  if ((rect.left < -0.5 || rect.right > innerWidth + 0.5) && !scrollsSideways(element)) {
    failures.push(`${name} at ${Math.round(rect.left)}–${Math.round(rect.right)} of ${innerWidth}`);
  }
  const style = getComputedStyle(element);
  if (element.matches("button.button") && rect.height > 2 * parseFloat(style.lineHeight || "20") + 24 && element.textContent.trim()) {
    failures.push(`${name} is ${Math.round(rect.height)} px tall`);
  }
}
return failures;
"""

# Every control has a name a screen reader can say (its text, a label, aria-label or aria-labelledby, a title);
# nothing is put in the tab order out of place (tabindex above 0), and nothing focusable hides from assistive
# technology (aria-hidden around it).
NAME_CHECK = r"""
const failures = [];
const describe = (e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className} "${(e.textContent || e.value || "").trim().slice(0, 20)}"`;
const controls = "button, a[href], input:not([type=hidden]), select, textarea, [role=button], [tabindex]";
for (const element of document.querySelectorAll(controls)) {
  if (!element.checkVisibility?.({ opacityProperty: true, visibilityProperty: true })) continue;
  if (element.closest("[inert], dialog:not([open])")) continue;
  const labelled = (element.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent || "").join(" ");
  const labels = element.labels ? [...element.labels].map((label) => label.textContent).join(" ") : "";
  const own = element.matches("button, a, [role=button]") ? element.textContent : "";
  const name = [element.getAttribute("aria-label"), labelled, labels, own, element.getAttribute("title"),
    element.matches("input[type=submit], input[type=button]") ? element.value : ""].map((text) => (text || "").trim()).find(Boolean);
  if (!name && !element.matches("[tabindex='-1']:not(button, a, input, select, textarea)")) failures.push(`no name: ${describe(element)}`);
  if (Number(element.getAttribute("tabindex")) > 0) failures.push(`tabindex above 0: ${describe(element)}`);
  if (element.closest("[aria-hidden=true]") && element.tabIndex >= 0) failures.push(`focusable inside aria-hidden: ${describe(element)}`);
}
return failures;
"""

MARKDOWN_SAMPLE = """Here is the plan:

1. Pack the bags
   - passports
   - tickets
     - train
     - ferry
2. Lock the door

- [x] book the hotel
- [ ] buy sun cream

| Day | Place |
|---|---|
| Monday | Rome |
| Tuesday | Naples |

```python
def greet(name):
    # say hello
    return f"Hello, {name}" * 2
```

A very long token: https://example.com/""" + "a" * 400 + """ ends here.
"""


class PolishTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = chromium(*DESKTOP)
        cls.wait = WebDriverWait(cls.driver, 60, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException])
        settings = api("/api/settings")
        settings.update(preset="precise", temperature=0, max_tokens=600)
        api("/api/settings", "PUT", settings)
        cls.sample_id = cls.import_sample()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    @classmethod
    def exported_chat(cls):
        """The export of a chat with a question and an answer, the shape an import reads: one the walk before left
        (pinned or archived ones too), or one asked for now when none holds both."""
        for listed in api("/api/sessions?archived=true")["sessions"]:
            exported = api(f"/api/sessions/{listed['id']}/export?format=json")
            if len(exported["messages"]) >= 2:
                return exported
        made = api("/api/sessions", "POST", {"title": "Export template"})["id"]
        request = urllib.request.Request(
            f"{BASE_URL}/api/sessions/{made}/turns", method="POST", data=json.dumps({"text": "Say hi."}).encode())
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
        return api(f"/api/sessions/{made}/export?format=json")

    @classmethod
    def import_sample(cls, title="Formatting sample"):
        """A saved chat whose answer exercises the Markdown renderer, through the import route."""
        now = time.time()
        session_id = str(uuid.uuid4())
        session = {"id": session_id, "title": title, "created_at": now, "updated_at": now,
                   "is_pinned": False, "is_archived": False}
        exported = cls.exported_chat()
        session = {**exported["session"], **session}
        user, answer = exported["messages"][0], exported["messages"][1]
        messages = [
            {**user, "id": str(uuid.uuid4()), "session_id": session_id, "content": "Show me some formatting."},
            {**answer, "id": str(uuid.uuid4()), "session_id": session_id, "content": MARKDOWN_SAMPLE, "state": "complete",
             # Written here, not generated: no figures.
             "generated_tokens": None, "generation_tokens_per_second": None, "time_to_first_token_ms": None},
        ]
        request = urllib.request.Request(BASE_URL + "/api/sessions/import", method="POST",
                                         data=json.dumps({"format": 1, "session": session, "messages": messages}).encode())
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 201
        return session_id

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def shoot(self, name, toast=False):
        shoot(self.driver, name, toast=toast)

    def open(self, size, theme="light", path="/"):
        self.driver.set_window_size(*size)
        phone_size(self.driver, size)
        self.driver.get(BASE_URL + path)
        self.driver.execute_script("localStorage.setItem('hearth.theme', arguments[0])", theme)
        # A new address that differs only after the # would not reload the page: reload it.
        self.driver.refresh()
        self.wait.until(EC.presence_of_element_located((By.ID, "prompt")))
        self.wait.until(lambda d: d.execute_script("return document.documentElement.dataset.theme || 'system'") == theme)

    def assert_accessible(self, where):
        contrast = self.driver.execute_script(CONTRAST_CHECK)
        self.maxDiff = None
        self.assertEqual(contrast, [], f"contrast below WCAG AA ({where})")
        self.assertEqual(self.driver.execute_script(NAME_CHECK), [], f"controls without names, or out of order ({where})")
        if self.driver.get_window_size()["width"] <= 800:
            targets = self.driver.execute_script(TARGET_CHECK)
            self.assertEqual(targets, [], f"touch targets under 44 px ({where})")
            self.assertEqual(self.driver.execute_script(FIT_CHECK), [], f"controls off the screen or wrapped ({where})")

    def test_1_the_phone_drawer_closes_as_expected(self):
        self.open(PHONE, "dark", f"/#/s/{self.sample_id}")
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "Formatting sample"))
        title = self.find("#session-title")
        self.assertGreater(title.rect["width"], 150, "the chat title is squeezed")
        toggle = self.find("#drawer-toggle")
        drawer = self.find("#drawer")

        def is_open():
            return "drawer-open" in self.find("#app").get_attribute("class")

        # Esc closes it, and focus goes back to the ☰ button.
        toggle.click()
        self.wait.until(lambda d: is_open() and self.find("#backdrop").is_displayed())
        self.assertEqual(toggle.get_attribute("aria-expanded"), "true")
        time.sleep(0.3)
        self.shoot("phone-drawer-dark")
        self.assert_accessible("phone, dark, drawer open")
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait.until(lambda d: not is_open())
        self.assertFalse(self.find("#backdrop").is_displayed())
        self.assertEqual(self.driver.switch_to.active_element, toggle)
        # A tap on the backdrop, beside the drawer.
        toggle.click()
        self.wait.until(lambda d: is_open())
        time.sleep(0.3)
        ActionChains(self.driver).move_to_element_with_offset(self.find("#backdrop"), 170, 0).click().perform()
        self.wait.until(lambda d: not is_open())
        # Its own close button.
        toggle.click()
        self.wait.until(lambda d: is_open())
        self.wait.until(EC.element_to_be_clickable((By.ID, "drawer-close"))).click()
        self.wait.until(lambda d: not is_open())
        # Navigating: Settings, then Theme, each leave the page in view.
        toggle.click()
        self.wait.until(lambda d: is_open())
        self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".nav-link[data-view='settings']"))).click()
        self.wait.until(lambda d: not is_open())
        self.assertTrue(self.find("#view-settings").is_displayed())
        toggle.click()
        self.wait.until(EC.element_to_be_clickable((By.ID, "theme-toggle"))).click()
        self.wait.until(lambda d: not is_open())
        # Choosing a chat closes it too.
        toggle.click()
        self.wait.until(EC.element_to_be_clickable(
            (By.XPATH, "//nav[@id='session-list']//button[contains(., 'Formatting sample')]"))).click()
        self.wait.until(lambda d: not is_open())
        self.assertFalse(drawer.is_displayed())

    def test_2_markdown_nested_lists_tasks_tables_code_and_long_words(self):
        for theme in ("light", "dark"):
            self.open(DESKTOP, theme, f"/#/s/{self.sample_id}")
            bubble = self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".message.assistant .bubble")))
            # 1. > li > ul > li > ul: three levels kept.
            nested = bubble.find_elements(By.CSS_SELECTOR, "ol > li > ul > li > ul > li")
            self.assertEqual([item.text for item in nested], ["train", "ferry"])
            self.assertEqual(len(bubble.find_elements(By.CSS_SELECTOR, "ol > li")), 2)
            boxes = bubble.find_elements(By.CSS_SELECTOR, "li.task input[type=checkbox]")
            self.assertEqual([box.is_selected() for box in boxes], [True, False])
            self.assertEqual(len(bubble.find_elements(By.CSS_SELECTOR, "table tbody tr")), 2)
            keywords = [span.text for span in bubble.find_elements(By.CSS_SELECTOR, "pre .tok-keyword")]
            self.assertIn("def", keywords)
            self.assertIn("return", keywords)
            self.assertEqual(bubble.find_element(By.CSS_SELECTOR, "pre .tok-comment").text, "# say hello")
            self.assertTrue(bubble.find_elements(By.CSS_SELECTOR, "pre .tok-string"))
            # The long token wraps inside its bubble: nothing scrolls sideways.
            overflow = self.driver.execute_script(
                "const m = document.getElementById('messages'); return [m.scrollWidth, m.clientWidth]")
            self.assertLessEqual(overflow[0], overflow[1] + 1, "the chat scrolls sideways")
            self.assert_accessible(f"desktop, {theme}, formatted answer")
        self.open(PHONE, "light", f"/#/s/{self.sample_id}")
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".message.assistant .bubble table")))
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, PHONE[0], "the page is wider than the phone")
        self.shoot("phone-markdown")
        self.assert_accessible("phone, light, formatted answer")

    def test_3_a_message_sent_while_the_server_is_away_is_kept_and_retried(self):
        self.open(DESKTOP)
        self.find("#new-chat").click()
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        # A draft survives a reload.
        prompt.send_keys("What is the capital of Italy?")
        self.driver.refresh()
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        self.wait.until(lambda d: prompt.get_attribute("value") == "What is the capital of Italy?")
        self.driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
        try:
            prompt.send_keys(Keys.ENTER)
            self.wait.until(EC.visibility_of_element_located((By.ID, "banner")))
            self.assertIn("can't be reached", self.find("#banner-text").text)
            self.assertNotIn("Failed to fetch", self.find("#banner-text").text)
            self.assertEqual(prompt.get_attribute("value"), "What is the capital of Italy?")
            self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".message.user"), [])
            self.assertTrue(self.find("#banner-retry").is_displayed())
        finally:
            self.driver.delete_network_conditions()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "banner-text"), "reached again"))
        self.find("#banner-retry").click()
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".message.assistant .stats")))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".message.user")), 1)
        self.assertEqual(prompt.get_attribute("value"), "")
        self.assertFalse(self.find("#banner").is_displayed())
        self.assertIn("Rome", self.find(".message.assistant .bubble").text)

    def last_answer_length(self):
        answers = self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")
        return len(answers[-1].text) if answers else 0

    def test_4_another_chat_can_be_used_while_one_answers(self):
        self.open(DESKTOP)
        self.find("#new-chat").click()
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        # A long answer of its own: nothing in the memory makes it so.
        prompt.send_keys("Write a very long story about a dragon who lives in a mountain.", Keys.ENTER)
        self.wait.until(lambda d: self.last_answer_length() > 10)
        # The first chat is named in the header and the list while it answers.
        self.assertIn("story about a dragon", self.find("#session-title").text)
        first = self.driver.current_url
        self.find("#new-chat").click()
        self.wait.until(EC.visibility_of_element_located((By.ID, "send")))
        self.assertFalse(self.find("#stop").is_displayed())
        prompt = self.find("#prompt")
        prompt.send_keys("What is the capital of France?", Keys.ENTER)
        self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.assistant .queued"), "Waiting for the model"))
        second = self.driver.current_url
        # Back in the first chat, the live answer is shown, still growing, with its Stop.
        self.driver.get(first)
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "story about a dragon"))
        self.wait.until(EC.visibility_of_element_located((By.ID, "stop")))
        before = self.last_answer_length()
        self.wait.until(lambda d: self.last_answer_length() > before + 5)
        self.find("#stop").click()
        self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.assistant:last-child .notice"), "Stopped."))
        # Focus goes back to the message box after Stop.
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "prompt")
        # A stopped answer keeps its figures, and can be copied whole.
        self.assertIn("tokens", self.find(".message.assistant:last-child .stats").text)
        copy = self.find(".message.assistant:last-child .copy-answer")
        copy.click()
        self.wait.until(lambda d: copy.text != "Copy")
        self.assertEqual(copy.text, "Copied")
        # The waiting message was answered.
        self.driver.get(second)
        # The address changes only after its #: the chat opens asynchronously, so first see it on screen.
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "capital of France"))
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".message.assistant .stats")))
        # One question, one answer: no saved copy shown beside the live one.
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant")), 1)
        self.assertIn("Paris", self.find(".message.assistant .bubble").text)

    def test_6_search_opens_a_hit_at_its_match(self):
        self.open(DESKTOP)
        search = self.find("#search")
        search.send_keys("ferry")
        mark = self.wait.until(EC.visibility_of_element_located(
            (By.XPATH, "//nav[@id='session-list']//button[contains(., 'Formatting sample')]//span[@class='snippet']/mark")))
        self.assertEqual(mark.text, "ferry")
        # The matched word is inside the result's visible box, not cut off.
        inside = self.driver.execute_script(
            "const m = arguments[0].getBoundingClientRect(), s = arguments[0].closest('.snippet').getBoundingClientRect();"
            "return m.width > 0 && m.left >= s.left - 1 && m.right <= s.right + 1 && m.bottom <= s.bottom + 1", mark)
        self.assertTrue(inside, "the match is cut off in the result")
        search.send_keys(Keys.ARROW_DOWN)
        self.assertIn("session-item", self.driver.switch_to.active_element.get_attribute("class"))
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        hit = self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".message.found mark.search-hit")))
        self.assertEqual(hit.text.lower(), "ferry")
        visible = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(), v = document.getElementById('messages').getBoundingClientRect();"
            "return r.top >= v.top && r.bottom <= v.bottom", hit)
        self.assertTrue(visible, "the hit is not scrolled into view")

    def test_7_settings_explain_themselves_and_guard_unsaved_changes(self):
        self.open(DESKTOP, path="/#/settings")
        self.driver.find_element(By.CSS_SELECTOR, ".nav-link[data-view='settings']").click()
        self.find("#advanced summary").click()
        self.assertIn("likeliest word", self.find("#help-temperature").text)
        save = self.find("#settings-form .save-bar button")
        in_view = self.driver.execute_script("return arguments[0].getBoundingClientRect().bottom <= innerHeight", save)
        self.assertTrue(in_view, "Save is below the fold")
        temperature = self.find("#settings-form input[name='temperature']")
        temperature.clear()
        temperature.send_keys("0.3")
        self.assertEqual(self.find("#settings-status").text, "Unsaved changes.")
        self.find(".nav-link[data-view='calendar']").click()
        alert = self.wait.until(EC.alert_is_present())
        self.assertIn("unsaved changes", alert.text)
        alert.dismiss()
        self.assertTrue(self.find("#view-settings").is_displayed())
        self.find("#new-chat").click()
        self.wait.until(EC.alert_is_present()).accept()
        self.wait.until(EC.visibility_of_element_located((By.ID, "view-chat")))
        # Nothing was saved.
        self.assertEqual(api("/api/settings")["temperature"], 0)

    def test_8_one_dialog_asks_for_the_api_key(self):
        keyed, key = os.environ.get("HEARTH_KEYED_URL"), os.environ.get("HEARTH_KEYED_KEY")
        if not keyed:
            self.skipTest("no server with a key (scripts/web-tests.sh starts one)")
        self.driver.set_window_size(*DESKTOP)
        phone_size(self.driver, DESKTOP)
        self.driver.get(keyed + "/")
        self.wait.until(EC.visibility_of_element_located((By.ID, "key-dialog")))
        # The page's first requests (chats, settings) were refused together: one dialog asks, once.
        time.sleep(0.5)
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "dialog[open]")), 1)
        self.assertFalse(self.find("#banner").is_displayed())
        self.find("#key-input").send_keys(key, Keys.ENTER)
        self.wait.until(EC.invisibility_of_element_located((By.ID, "key-dialog")))
        # Every refused request ran again with the key: the chats and the settings are there, no error shown.
        self.wait.until(lambda d: "no chats yet" in self.find("#session-list").text.lower())
        self.find(".nav-link[data-view='settings']").click()
        self.wait.until(lambda d: self.find("#settings-form input[name='max_tokens']").get_attribute("value") != "")
        self.assertFalse(self.find("#banner").is_displayed())
        self.assertEqual(self.driver.execute_script("return localStorage.getItem('hearth.apiKey')"), key)

    def wait_for_answer(self, css=".message.assistant:last-of-type"):
        return self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"{css} .stats")))

    def click(self, css):
        """Clicks what `css` finds once it can be clicked; the chat may redraw it as an answer settles, so a
        button found just before a redraw is found again. A notice that came up over it (the notice area floats
        above the composer, and what is due depends on the hour) is scrolled away from, as a user would."""
        scrolled = False
        for _ in range(5):
            try:
                element = self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, css)))
                if scrolled:
                    # Still under the notice where the chat cannot scroll further: the button's own click.
                    self.driver.execute_script("arguments[0].click()", element)
                else:
                    element.click()
                return
            except StaleElementReferenceException:
                continue
            except ElementClickInterceptedException:
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                scrolled = True
        self.fail(f"{css} was redrawn every time it was to be clicked")

    def answer_id(self):
        return self.find(".message.assistant:last-of-type").get_attribute("data-id")

    def test_9_regenerate_and_edit_keep_every_version_and_an_answer_continues(self):
        for size, theme in ((DESKTOP, "light"), (PHONE, "dark")):
            self.open(size, theme)  # a new chat
            prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
            prompt.send_keys("What is the capital of France?", Keys.ENTER)
            self.wait_for_answer()
            # The model that answers is named in the header and leads to the Models page.
            chip = self.find("#model-chip")
            self.assertEqual(chip.text, "SmolLM2-135M-Instruct.Q4_1")
            self.assertTrue(chip.get_attribute("href").endswith("#/models"))
            first = self.answer_id()
            self.assertIn("Paris", self.find(".message.assistant .bubble").text)

            # Regenerate: a new answer in the same place, the old one kept as version 1 of 2.
            self.click(".message.assistant .regenerate")
            self.wait.until(lambda d: self.answer_id() not in (None, "", first))
            count = self.wait.until(EC.text_to_be_present_in_element(
                (By.CSS_SELECTOR, ".message.assistant .version-count"), "2 / 2"))
            self.assertTrue(count)
            second = self.answer_id()
            self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant")), 1)
            self.click(".message.assistant [aria-label='Previous version']")
            self.wait.until(lambda d: self.answer_id() == first)
            self.assertEqual(self.find(".message.assistant .version-count").text, "1 / 2")
            # The versions are the server's: a reload shows the one chosen.
            self.driver.refresh()
            self.wait.until(lambda d: self.answer_id() == first)
            self.click(".message.assistant [aria-label='Next version']")
            self.wait.until(lambda d: self.answer_id() == second)

            # Edit the question: the new one is answered; the old question and its answers are a version away.
            self.find(".message.user .edit-message").click()
            box = self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".message.user .edit-box")))
            self.assertEqual(box.get_attribute("value"), "What is the capital of France?")
            box.clear()
            box.send_keys("What is the capital of Italy?", Keys.ENTER)
            self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.user .bubble"), "Italy"))
            self.wait_for_answer()
            self.assertIn("Rome", self.find(".message.assistant .bubble").text)
            self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.user .version-count"), "2 / 2"))
            time.sleep(0.3)
            self.shoot(f"versions-{theme}")
            self.assert_accessible(f"{theme}, versions")
            self.find(".message.user [aria-label='Previous version']").click()
            self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.user .bubble"), "France"))
            self.wait.until(lambda d: self.answer_id() == second)
            self.assertEqual(self.find(".message.assistant .version-count").text, "2 / 2")

            # Esc leaves an edit without sending it.
            self.find(".message.user .edit-message").click()
            box = self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".message.user .edit-box")))
            box.send_keys(Keys.ESCAPE)
            self.wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, ".message.user .edit-box")))
            self.assertIn("France", self.find(".message.user .bubble").text)

        # Continue: a stopped answer carries on where it stopped.
        self.open(DESKTOP)
        self.find("#new-chat").click()
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        prompt.send_keys("Write a very long story about a dragon who lives in a mountain.", Keys.ENTER)
        self.wait.until(lambda d: self.last_answer_length() > 20)
        self.find("#stop").click()
        self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.assistant:last-child .notice"), "Stopped."))
        chat = self.driver.current_url.split("#/s/")[1]
        stopped = api(f"/api/sessions/{chat}")["messages"][-1]["content"]
        shown = self.last_answer_length()
        self.find(".message.assistant .continue-answer").click()
        self.wait.until(lambda d: self.last_answer_length() > shown + 10)
        self.find("#stop").click()
        self.wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".message.assistant:last-child .notice"), "Stopped."))
        # The same answer, grown: what was there is its beginning.
        messages = api(f"/api/sessions/{chat}")["messages"]
        self.assertEqual(len(messages), 2)
        self.assertTrue(messages[-1]["content"].startswith(stopped), f"{stopped!r} → {messages[-1]['content']!r}")
        self.assertGreater(len(messages[-1]["content"]), len(stopped))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant")), 1)
        # Once another message follows, the earlier answer can no longer go on. (The new answer may offer to go
        # on itself when it stopped at the length limit: only the earlier one is checked.)
        # The new answer is stopped once it has begun: greedy, it could run to the length limit, and only that
        # a message follows matters here.
        prompt.send_keys("Thanks.", Keys.ENTER)
        self.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".message.assistant")) == 2)
        self.wait.until(lambda d: self.last_answer_length() > 0)
        stop_answer(self.driver)
        self.wait.until(EC.element_to_be_clickable((By.ID, "send")))
        earlier = self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant")[0]
        buttons = [b for b in earlier.find_elements(By.CSS_SELECTOR, ".continue-answer") if b.is_displayed()]
        self.assertEqual(buttons, [])

    def test_5_shortcuts(self):
        self.open(DESKTOP)
        body = self.find("body")
        self.find("#session-title").click()
        body.send_keys("/")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "prompt")
        self.find("#session-title").click()
        body.send_keys("?")
        dialog = self.wait.until(EC.visibility_of_element_located((By.ID, "shortcuts-dialog")))
        self.assertIn("Search chats", dialog.text)
        self.assert_accessible("desktop, shortcuts")
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait.until(EC.invisibility_of_element_located((By.ID, "shortcuts-dialog")))

    def set_value(self, element, value):
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
            element, value,
        )

    def find_xpath(self, path):
        return self.driver.find_element(By.XPATH, path)

    @staticmethod
    def block(day, title):
        """The week view's block of the event titled exactly `title` on `day`."""
        return (f"//div[@data-date='{day}']//button[contains(@class,'event-block')]"
                f"[.//span[@class='event-title' and normalize-space()='{title}']]")

    def show_day(self, day):
        """Steps the calendar's current view (day or week) with Earlier and Later until `day`'s column is drawn:
        how many steps that takes depends on the weekday the test runs on (on a Sunday, tomorrow is next week)."""
        for _ in range(8):
            shown = self.wait.until(lambda d: d.execute_script(
                "return [...document.querySelectorAll('#view-calendar .day-column')].map((c) => c.dataset.date)"))
            if str(day) in shown:
                return
            first = shown[0]
            self.click(".page-bar .icon-button[title='%s']" % ("Later" if str(day) > first else "Earlier"))
            self.wait.until(lambda d: d.execute_script(
                "return document.querySelector('#view-calendar .day-column')?.dataset.date") != first)
        self.fail(f"the calendar never showed {day}")

    def test_10_the_calendar_on_a_phone_a_line_at_now_and_one_event_of_a_series(self):
        today = datetime.date.today()
        tomorrow, next_week = today + datetime.timedelta(days=1), today + datetime.timedelta(days=8)
        series = api("/api/calendar/events", "POST", {
            "title": "Team sync", "start": f"{tomorrow}T10:00", "end": f"{tomorrow}T10:30",
            "recurrence": {"frequency": "WEEKLY"}})["event"]
        review = api("/api/calendar/events", "POST", {
            "title": "Team sync review", "start": f"{tomorrow}T14:00", "end": f"{tomorrow}T15:00", "calendar": "Work"})["event"]
        try:
            # A phone opens on the agenda: the next two weeks as a list, both meetings in it.
            self.open(PHONE, path="/#/calendar")
            agenda = self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".agenda")))
            self.assertEqual(self.find(".segmented [aria-pressed='true']").text, "Agenda")
            for day in (tomorrow, next_week):
                self.assertIn("10:00–10:30\nTeam sync", agenda.find_element(By.CSS_SELECTOR, f".agenda-day[data-date='{day}']").text)
            self.assert_accessible("phone, calendar agenda")
            self.shoot("calendar-agenda-phone")
            # Each calendar has its colour, named in a key above the days.
            self.assertEqual(self.find(".calendar-legend").text.split(), ["Personal", "Work"])
            colors = {button.text.split("\n")[1]: button.value_of_css_property("border-left-color")
                      for button in agenda.find_elements(By.CSS_SELECTOR, f".agenda-day[data-date='{tomorrow}'] .agenda-event")}
            self.assertNotEqual(colors["Team sync"], colors["Team sync review"], colors)
            # The day view: one column, with a line at this minute.
            self.find(".segmented [data-mode='day']").click()
            line = self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f".day-column[data-date='{today}'] .now-line")))
            now = datetime.datetime.now()
            self.assertLessEqual(abs(int(line.get_attribute("data-minute")) - (now.hour * 60 + now.minute)), 2)
            self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".day-column")), 1)
            # The month on a phone shows titles, not cut-off times.
            self.find(".segmented [data-mode='month']").click()
            chip = self.wait.until(EC.visibility_of_element_located((By.XPATH, "//button[contains(@class,'event-chip')][contains(., 'Team sync')]")))
            self.assertEqual(chip.text, "Team sync")

            # On a desktop, next week's meeting alone moves to 11:00 and is renamed; the series keeps the rest.
            self.open(DESKTOP, path="/#/calendar")
            self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".week")))
            self.show_day(next_week)
            block = self.wait.until(EC.element_to_be_clickable((By.XPATH, self.block(next_week, "Team sync"))))
            block.click()
            form = self.wait.until(EC.visibility_of_element_located((By.ID, "event-form")))
            self.assertTrue(self.find("#event-scope").is_displayed())
            self.assertTrue(form.find_element(By.CSS_SELECTOR, "input[name='scope'][value='one']").is_selected())
            self.assertEqual(form.find_element(By.NAME, "date").get_attribute("value"), str(next_week))
            self.assertFalse(form.find_element(By.NAME, "repeat").is_enabled())
            title = form.find_element(By.NAME, "title")
            title.clear()
            title.send_keys("Team sync, moved")
            self.set_value(form.find_element(By.NAME, "startTime"), "11:00")
            form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            self.wait.until(EC.invisibility_of_element_located((By.ID, "event-dialog")))
            column = f"//div[@data-date='{next_week}']"
            self.wait.until(EC.visibility_of_element_located((By.XPATH, f"{column}//button[contains(., 'Team sync, moved')]")))
            # Half an hour: a short block, its title then its start.
            self.assertEqual(self.find(f".day-column[data-date='{next_week}']").text, "Team sync, moved 11:00")
            window = f"from={today}&to={today + datetime.timedelta(days=15)}"
            stored = list({o["event"]["id"]: o["event"] for o in api(f"/api/calendar/occurrences?{window}")["occurrences"]
                           if o["event"]["title"].startswith("Team sync")}.values())
            self.assertEqual(sorted(e["title"] for e in stored), ["Team sync", "Team sync review", "Team sync, moved"])
            self.assertEqual(next(e for e in stored if e["id"] == series["id"])["exceptions"], [f"{next_week}T10:00"])

            # Tomorrow's alone is deleted, and Undo brings it back.
            self.show_day(tomorrow)
            self.wait.until(EC.element_to_be_clickable((By.XPATH, self.block(tomorrow, "Team sync")))).click()
            self.wait.until(EC.visibility_of_element_located((By.ID, "event-delete"))).click()
            self.wait.until(EC.invisibility_of_element_located((By.ID, "event-dialog")))
            self.wait.until(lambda d: not d.find_elements(By.XPATH, self.block(tomorrow, "Team sync")))
            self.assertTrue(self.driver.find_elements(By.XPATH, self.block(tomorrow, "Team sync review")))
            self.assertIn("rest of the series stays", self.find("#toast").text)
            self.find("#toast .toast-undo").click()
            self.wait.until(lambda d: d.find_elements(By.XPATH, self.block(tomorrow, "Team sync")))
        finally:
            window = f"from={today}&to={today + datetime.timedelta(days=15)}"
            left = {o["event"]["id"] for o in api(f"/api/calendar/occurrences?{window}")["occurrences"]
                    if o["event"]["title"].startswith("Team sync")}
            for event_id in left | {series["id"], review["id"]}:
                try:
                    api(f"/api/calendar/events/{event_id}", "DELETE")
                except urllib.error.HTTPError:
                    pass

    def test_11_a_reminder_is_edited_where_it_is_listed(self):
        tomorrow = str(datetime.date.today() + datetime.timedelta(days=1))
        item = api("/api/reminders", "POST", {"title": "Call the plumber", "due": tomorrow})
        try:
            self.open(DESKTOP, path="/#/reminders")
            row = f"//li[@data-id='{item['id']}']"
            self.wait.until(EC.element_to_be_clickable((By.XPATH, f"{row}//button[contains(@class,'edit-reminder')]"))).click()
            form = self.wait.until(EC.visibility_of_element_located((By.XPATH, f"{row}//form")))
            # A time without a day is said beside the day, and nothing is saved.
            self.set_value(form.find_element(By.NAME, "due"), "")
            self.set_value(form.find_element(By.NAME, "time"), "09:30")
            form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            self.assertEqual(form.find_element(By.NAME, "due").get_attribute("aria-invalid"), "true")
            self.assertIn("A time needs a day", form.find_element(By.CSS_SELECTOR, ".field-error").text)
            stored = next(r for r in api("/api/reminders")["reminders"] if r["id"] == item["id"])
            self.assertEqual(stored["title"], "Call the plumber")
            self.set_value(form.find_element(By.NAME, "due"), tomorrow)
            title = form.find_element(By.NAME, "title")
            title.clear()
            title.send_keys("Call the plumber about the sink")
            form.find_element(By.NAME, "priority").send_keys("high")
            title.send_keys(Keys.ENTER)
            self.wait.until(EC.text_to_be_present_in_element((By.XPATH, row), "Call the plumber about the sink"))
            self.assertIn(readable_day(datetime.date.fromisoformat(tomorrow), "09:30"), self.find(f"li[data-id='{item['id']}']").text)
            stored = next(r for r in api("/api/reminders")["reminders"] if r["id"] == item["id"])
            self.assertEqual((stored["title"], stored["priority"], stored["due"]["time"][:16]),
                             ("Call the plumber about the sink", "high", f"{tomorrow}T09:30"))
            # Esc puts the row back as it was.
            self.find(f"li[data-id='{item['id']}'] .edit-reminder").click()
            form = self.wait.until(EC.visibility_of_element_located((By.XPATH, f"{row}//form")))
            form.find_element(By.NAME, "title").send_keys(" and the roof", Keys.ESCAPE)
            self.wait.until(EC.invisibility_of_element_located((By.XPATH, f"{row}//form")))
            self.assertNotIn("roof", self.find(f"li[data-id='{item['id']}']").text)
        finally:
            api(f"/api/reminders/{item['id']}", "DELETE")

    def test_12_a_task_in_a_notes_preview_is_ticked_and_saved(self):
        note = api("/api/notes", "POST", {"title": "Groceries", "body": "- [ ] milk\n- [ ] eggs\n\n```\n- [ ] not a task\n```"})
        try:
            self.open(DESKTOP, path="/#/notes")
            self.wait.until(EC.element_to_be_clickable((By.XPATH, "//*[contains(@class,'note-item')][contains(., 'Groceries')]"))).click()
            boxes = self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview li.task input[type=checkbox]"))
            self.assertEqual(len(boxes), 2)
            self.assertTrue(all(box.is_enabled() for box in boxes))
            self.assertEqual(boxes[1].get_attribute("aria-label"), "eggs: not done")
            boxes[1].click()
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "note-status"), "Saved"))
            stored = next(n for n in api("/api/notes")["notes"] if n["id"] == note["id"])
            self.assertEqual(stored["body"], "- [ ] milk\n- [x] eggs\n\n```\n- [ ] not a task\n```")
            self.assertIn("- [x] eggs", self.find("#note-form textarea[name='body']").get_attribute("value"))
            self.assertTrue(self.find("#note-preview li.task:nth-child(2) input").is_selected())
        finally:
            api(f"/api/notes/{note['id']}", "DELETE")

    def test_13_every_page_is_accessible_on_a_desktop_and_a_phone_in_both_themes(self):
        pages = ["calendar", "reminders", "notes", "habits", "contacts", "memory", "settings", "models", "diagnostics"]
        for size, themes in ((DESKTOP, ("light", "dark")), (PHONE, ("light", "dark"))):
            for theme in themes:
                self.open(size, theme, f"/#/s/{self.sample_id}")
                self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "Formatting sample"))
                self.assert_accessible(f"{size[0]} px, {theme}, chat")
                for page in pages:
                    self.driver.get(f"{BASE_URL}/#/{page}")
                    self.wait.until(EC.visibility_of_element_located((By.ID, f"view-{page}")))
                    # The page's data arrives after its frame: wait for it to settle.
                    time.sleep(0.4)
                    with self.subTest(page=page, size=size[0], theme=theme):
                        self.assert_accessible(f"{size[0]} px, {theme}, {page}")

    @staticmethod
    def tomorrows_event(title, start, end):
        """An event tomorrow from `start` to `end` (HH:MM): the day, the event, and a way to read it back as stored."""
        tomorrow = datetime.date.today() + datetime.timedelta(days=1)
        event = api("/api/calendar/events", "POST", {
            "title": title, "start": f"{tomorrow}T{start}", "end": f"{tomorrow}T{end}"})["event"]
        return tomorrow, event, lambda: api(f"/api/calendar/events/{event['id']}")

    def test_14_an_event_is_dragged_to_another_hour_and_its_end_stretched(self):
        tomorrow, event, stored = self.tomorrows_event("Piano practice", "09:00", "10:00")
        try:
            self.open(DESKTOP, path="/#/calendar")
            self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".segmented [data-mode='week']"))).click()
            self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".week")))
            self.show_day(tomorrow)
            block = self.wait.until(EC.element_to_be_clickable((By.XPATH, self.block(tomorrow, "Piano practice"))))
            # An hour down (44 px an hour): the event moves, the editor does not open.
            ActionChains(self.driver).drag_and_drop_by_offset(block, 0, 44).perform()
            self.wait.until(lambda d: stored()["start"] == f"{tomorrow}T10:00")
            self.assertEqual(stored()["end"], f"{tomorrow}T11:00")
            self.assertFalse(self.find("#event-dialog").is_displayed())
            # The page says so once it has drawn the week again (the server has it a moment before).
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "now "))
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "10:00–11:00"))
            # Its lower edge half an hour down: it ends at 11:30.
            self.wait.until(lambda d: "10:00" in d.find_element(By.XPATH, self.block(tomorrow, "Piano practice")).text)
            handle = self.find_xpath(self.block(tomorrow, "Piano practice")).find_element(By.CSS_SELECTOR, ".resize-handle")
            ActionChains(self.driver).drag_and_drop_by_offset(handle, 0, 22).perform()
            self.wait.until(lambda d: stored()["end"] == f"{tomorrow}T11:30")
            self.assertEqual(stored()["start"], f"{tomorrow}T10:00")
            # Undo takes the last step back.
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "10:00–11:30"))
            self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#toast .toast-undo"))).click()
            self.wait.until(lambda d: stored()["end"] == f"{tomorrow}T11:00")
            # A plain click still opens the editor.
            self.wait.until(EC.element_to_be_clickable((By.XPATH, self.block(tomorrow, "Piano practice")))).click()
            self.wait.until(EC.visibility_of_element_located((By.ID, "event-form")))
            self.find("#event-cancel").click()
            # A repeating event's occurrence dragged moves alone: a new event that day, the series skips it.
            series = api("/api/calendar/events", "POST", {
                "title": "Choir", "start": f"{tomorrow}T18:00", "end": f"{tomorrow}T19:00", "recurrence": {"frequency": "WEEKLY"}})["event"]
            self.find(".page-bar .button:not(.primary)").click()
            self.wait.until(EC.staleness_of(block))
            self.show_day(tomorrow)
            choir = self.wait.until(EC.element_to_be_clickable((By.XPATH, self.block(tomorrow, "Choir"))))
            ActionChains(self.driver).drag_and_drop_by_offset(choir, 0, -44).perform()
            self.wait.until(lambda d: api(f"/api/calendar/events/{series['id']}")["exceptions"] == [f"{tomorrow}T18:00"])
            day = api(f"/api/calendar/occurrences?from={tomorrow}&to={tomorrow + datetime.timedelta(days=1)}")["occurrences"]
            choirs = [o for o in day if o["event"]["title"] == "Choir"]
            self.assertEqual([(o["start"], o["event"].get("recurrence")) for o in choirs], [(f"{tomorrow}T17:00", None)])
            for event_id in {series["id"], choirs[0]["event"]["id"]}:
                api(f"/api/calendar/events/{event_id}", "DELETE")
        finally:
            api(f"/api/calendar/events/{event['id']}", "DELETE")

    def test_15_a_repeating_reminder_comes_back_and_every_step_is_undone(self):
        today = datetime.date.today()
        created = []
        try:
            self.open(PHONE, path="/#/reminders")
            form = self.wait.until(EC.visibility_of_element_located((By.ID, "reminder-form")))
            form.find_element(By.NAME, "title").send_keys("Water the plants")
            self.set_value(form.find_element(By.NAME, "due"), str(today))
            # Times are written on the 24-hour clock; one that is not a time is said beside its field.
            form.find_element(By.NAME, "time").send_keys("25:10")
            Select(form.find_element(By.NAME, "repeat")).select_by_visible_text("Every week")
            form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            self.assertEqual(form.find_element(By.NAME, "time").get_attribute("aria-invalid"), "true")
            self.assertIn("such as 14:30", form.find_element(By.CSS_SELECTOR, ".field-error").text)
            self.assertFalse([r for r in api("/api/reminders")["reminders"] if r["title"] == "Water the plants"])
            self.set_value(form.find_element(By.NAME, "time"), "8:05")
            form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            row = "//li[contains(., 'Water the plants')]"
            self.wait.until(EC.visibility_of_element_located((By.XPATH, row)))
            stored = next(r for r in api("/api/reminders")["reminders"] if r["title"] == "Water the plants")
            created.append(stored["id"])
            self.assertEqual((stored["due"]["time"][:16], stored["recurrence"]["frequency"]), (f"{today}T08:05", "WEEKLY"))
            self.assertIn("↻ Every week", self.find_xpath(row).text)
            api(f"/api/reminders/{stored['id']}", "PUT", {"title": "Water the plants", "due": f"{today}T08:05",
                                                          "recurrence": stored["recurrence"], "notes": "The fern too"})
            self.driver.refresh()

            # Done: it stays open, due a week later, and says so with an Undo.
            box = self.wait.until(EC.element_to_be_clickable((By.XPATH, f"{row}//input[@type='checkbox']")))
            box.click()
            next_week = today + datetime.timedelta(days=7)
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), f"due again {readable_day(next_week, '08:05')}"))
            self.assertIn(readable_day(next_week, "08:05"), self.find_xpath(row).text)
            self.assertIsNone(api(f"/api/reminders/{stored['id']}").get("completed_at"))
            self.assertNotIn("Water the plants", "".join(e.get_attribute("textContent") for e in self.driver.find_elements(By.CSS_SELECTOR, ".done-list")))
            # The toast, its Undo among them, meets the same checks as the page, and covers no part of the composer.
            self.assert_accessible("390 px, reminders with a toast")
            self.find("#toast .toast-undo").click()
            self.wait.until(lambda d: api(f"/api/reminders/{stored['id']}")["due"]["time"][:16] == f"{today}T08:05")
            self.wait.until(EC.text_to_be_present_in_element((By.XPATH, row), readable_day(today, "08:05")))

            # Deleted, then back with its notes and its repeat.
            self.find_xpath(f"{row}//button[@title='Delete']").click()
            choose_in_question(self, "Water the plants")
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "Deleted"))
            self.shoot("reminders-undo-phone", toast=True)
            self.find("#toast .toast-undo").click()
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "is back"))
            back = next(r for r in api("/api/reminders")["reminders"] if r["title"] == "Water the plants")
            created.append(back["id"])
            self.assertEqual((back["notes"], back["recurrence"], back["due"]["time"][:16]),
                             ("The fern too", stored["recurrence"], f"{today}T08:05"))

            # Edited in place, the repeat is kept unless it is changed.
            row = f"//li[@data-id='{back['id']}']"
            self.wait.until(EC.element_to_be_clickable((By.XPATH, f"{row}//button[contains(@class,'edit-reminder')]"))).click()
            edit = self.wait.until(EC.visibility_of_element_located((By.XPATH, f"{row}//form")))
            self.assertEqual(Select(edit.find_element(By.NAME, "repeat")).first_selected_option.text, "Every week")
            Select(edit.find_element(By.NAME, "repeat")).select_by_visible_text("Every month")
            edit.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            self.wait.until(EC.text_to_be_present_in_element((By.XPATH, row), "↻ Every month"))
            self.assertEqual(api(f"/api/reminders/{back['id']}")["recurrence"]["frequency"], "MONTHLY")
        finally:
            for reminder_id in created:
                try:
                    api(f"/api/reminders/{reminder_id}", "DELETE")
                except urllib.error.HTTPError:
                    pass

    def test_16_a_page_that_could_not_load_says_so_offers_retry_and_draws_itself_when_hearth_is_back(self):
        self.open(DESKTOP, path="/#/calendar")
        self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".segmented [data-mode='week']"))).click()
        # Read from the week once it is drawn (the view before it has day columns too).
        first = self.wait.until(lambda d: d.execute_script("return document.querySelector('.week:not(.one-day) .day-column')?.dataset.date"))
        next_week = str(datetime.date.fromisoformat(first) + datetime.timedelta(days=7))
        try:
            self.driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
            # The bar may be drawn again as the week settles: found again if so.
            self.click(".page-bar .icon-button[title='Later']")
            self.wait.until(EC.visibility_of_element_located((By.ID, "banner")))
            self.assertIn("can't be reached", self.find("#banner-text").text)
            self.assertTrue(self.find("#banner-retry").is_displayed())
            self.shoot("calendar-unreachable")
        finally:
            self.driver.delete_network_conditions()
        # Nothing to press: once /health answers, the week asked for is drawn and the notice goes.
        WebDriverWait(self.driver, 20).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, f".day-column[data-date='{next_week}']"))
        self.wait.until(EC.invisibility_of_element_located((By.ID, "banner")))
        # A page that fails for another reason keeps its Retry until it is pressed.
        self.driver.execute_script("""
            window.realFetch = window.fetch;
            window.fetch = (path, options) => String(path).startsWith('/api/reminders')
              ? Promise.resolve(new Response('{"error":{"message":"the store is busy"}}', {status: 503}))
              : window.realFetch(path, options);""")
        self.find(".nav-link[data-view='reminders']").click()
        self.wait.until(EC.text_to_be_present_in_element((By.ID, "banner-text"), "the store is busy"))
        self.driver.execute_script("window.fetch = window.realFetch")
        self.find("#banner-retry").click()
        self.wait.until(EC.visibility_of_element_located((By.ID, "reminder-form")))
        self.assertFalse(self.find("#banner").is_displayed())
        # Each page is a step in the history: Back returns to the calendar.
        self.driver.back()
        self.wait.until(EC.visibility_of_element_located((By.ID, "view-calendar")))
        self.assertEqual(self.driver.execute_script("return location.hash"), "#/calendar")

    def test_17_open_forms_and_dialogs_pass_the_same_accessibility_check(self):
        item = api("/api/reminders", "POST", {"title": "Book the boiler service", "due": str(datetime.date.today())})
        note = api("/api/notes", "POST", {"title": "Boiler manual", "body": "The pressure should read 1.5 bar when cold."})
        try:
            for size, theme in ((DESKTOP, "light"), (PHONE, "dark")):
                self.open(size, theme, "/#/calendar")
                self.wait.until(EC.element_to_be_clickable((By.ID, "add-event"))).click()
                self.wait.until(EC.visibility_of_element_located((By.ID, "event-form")))
                self.assert_accessible(f"{size[0]} px, {theme}, the event form")
                self.find("#event-cancel").click()
                self.driver.get(f"{BASE_URL}/#/reminders")
                row = f"//li[@data-id='{item['id']}']"
                self.wait.until(EC.element_to_be_clickable((By.XPATH, f"{row}//button[contains(@class,'edit-reminder')]"))).click()
                form = self.wait.until(EC.visibility_of_element_located((By.XPATH, f"{row}//form")))
                # With a problem said beside its field, too.
                self.set_value(form.find_element(By.NAME, "time"), "7 pm")
                form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
                self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, f"li[data-id='{item['id']}'] .field-error")))
                self.assert_accessible(f"{size[0]} px, {theme}, a reminder edited in place")
                # A saved note in its editor, with every button it has (Save, Suggest, Export, Delete).
                self.driver.get(f"{BASE_URL}/#/notes/{note['id']}")
                self.wait.until(EC.visibility_of_element_located((By.ID, "note-suggest")))
                self.assert_accessible(f"{size[0]} px, {theme}, a saved note")
        finally:
            api(f"/api/reminders/{item['id']}", "DELETE")
            api(f"/api/notes/{note['id']}", "DELETE")

    def touch(self, kind, x, y):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]
        self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def finger(self, element, dy, hold):
        """A finger on `element`'s middle, held for `hold` seconds, then moved `dy` pixels down in small steps and lifted."""
        box = self.driver.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]", element)
        x, y = box
        self.touch("touchStart", x, y)
        time.sleep(hold)
        for step in range(1, 9):
            self.touch("touchMove", x, y + dy * step / 8)
            time.sleep(0.03)
        self.touch("touchEnd", x, y + dy)

    def test_18_on_a_phone_a_finger_held_on_an_event_moves_it_and_a_swipe_still_scrolls(self):
        tomorrow, event, stored = self.tomorrows_event("Violin lesson", "12:00", "13:00")
        try:
            self.open(PHONE, path="/#/calendar")
            self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".segmented [data-mode='day']"))).click()
            self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".week.one-day")))
            self.click(".page-bar .icon-button[title='Later']")
            block = self.wait.until(EC.presence_of_element_located((By.XPATH, self.block(tomorrow, "Violin lesson"))))
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", block)
            scroller = self.driver.execute_script("return arguments[0].closest('.week-scroll')", block)
            # A quick swipe over it scrolls the day and leaves the event where it was.
            before = self.driver.execute_script("return arguments[0].scrollTop", scroller)
            self.finger(block, -88, hold=0)
            self.wait.until(lambda d: d.execute_script("return arguments[0].scrollTop", scroller) != before)
            self.assertEqual(stored()["start"], f"{tomorrow}T12:00")
            # Held still first, it is picked up: an hour down (44 px an hour) it moves there.
            block = self.wait.until(EC.presence_of_element_located((By.XPATH, self.block(tomorrow, "Violin lesson"))))
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", block)
            self.finger(block, 44, hold=0.7)
            self.wait.until(lambda d: stored()["start"] == f"{tomorrow}T13:00")
            self.assertEqual(stored()["end"], f"{tomorrow}T14:00")
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "toast"), "13:00–14:00"))
        finally:
            api(f"/api/calendar/events/{event['id']}", "DELETE")

    def test_19_two_windows_on_one_chat_see_the_same_messages_and_a_reload_shows_how_an_answer_ended(self):
        self.open(DESKTOP)
        prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
        prompt.send_keys("What is the capital of France?", Keys.ENTER)
        self.wait_for_answer()
        chat = self.driver.current_url
        # A second window, as a second device or tab would be: its own browser, on the same chat.
        other = chromium(*DESKTOP)
        try:
            other_wait = WebDriverWait(other, 60, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException])
            other.get(chat)
            other_wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "capital of France"))
            other_wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".message.assistant .stats")) == 1)
            # Asked here, seen there as it is written: the question at once, then the answer, the same words.
            self.find("#prompt").send_keys("And of Spain?", Keys.ENTER)
            other_wait.until(lambda d: any("And of Spain?" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".message.user .bubble")))
            self.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".message.assistant .stats")) == 2)
            here = self.driver.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")[-1].text
            other_wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".message.assistant .stats")) == 2)
            there = other.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")[-1].text
            self.assertEqual(there, here)
            self.assertEqual(len(other.find_elements(By.CSS_SELECTOR, ".message.user")), 2)
            self.assertEqual(len(other.find_elements(By.CSS_SELECTOR, ".message.assistant")), 2)
            # A long answer, and this window reloaded while it is written: the answer stops with the page that
            # asked, and both windows show it stopped, with no second reload and no cursor left blinking.
            self.find("#prompt").send_keys("Write a very long story about a dragon who lives in a mountain.", Keys.ENTER)
            other_wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")) == 3
                             and len(d.find_elements(By.CSS_SELECTOR, ".message.assistant .bubble")[-1].text) > 20)
            self.driver.refresh()
            for driver, wait in ((self.driver, self.wait), (other, other_wait)):
                wait.until(EC.text_to_be_present_in_element(
                    (By.CSS_SELECTOR, ".message.assistant:last-of-type .notice"), "Stopped."))
                self.assertEqual(driver.find_elements(By.CSS_SELECTOR, ".bubble.cursor"), [])
        finally:
            other.quit()

    def test_20_after_an_answer_that_acted_the_chat_ends_at_its_card_above_the_composer(self):
        for size in (DESKTOP, PHONE):
            # A chat long enough to scroll, as an everyday one is.
            chat = self.import_sample(title="Plans with a change")
            self.open(size, "light", f"/#/s/{chat}")
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "session-title"), "Plans with a change"))
            prompt = self.wait.until(EC.element_to_be_clickable((By.ID, "prompt")))
            prompt.send_keys("Remind me to water the ferns tomorrow at 9", Keys.ENTER)
            card = self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".action-card[data-state='created']")))
            self.wait.until(EC.visibility_of_element_located((By.ID, "send")))
            undo = card.find_element(By.XPATH, ".//button[.='Undo']")
            # The list ends at the card: its Undo is in view, above the composer, not under it.
            placed = self.driver.execute_script(
                "const list = document.getElementById('messages'), undo = arguments[0].getBoundingClientRect();"
                "const box = list.getBoundingClientRect(), composer = document.getElementById('composer').getBoundingClientRect();"
                "return { atEnd: list.scrollHeight - list.scrollTop - list.clientHeight < 2,"
                " inView: undo.top >= box.top && undo.bottom <= box.bottom && undo.bottom <= composer.top,"
                " scrolls: list.scrollHeight > list.clientHeight + 100 };", undo)
            self.assertEqual(placed, {"atEnd": True, "inView": True, "scrolls": True}, f"{size[0]} px")
            # A finger or a click reaches it there: nothing lies over it but, at times, the notices (reminders due
            # now, which float above the composer until they are dealt with).
            on_top = self.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect();"
                "const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);"
                "return arguments[0].contains(top) ? 'undo' : top.closest('.notice-area') ? 'notices' : top.outerHTML.slice(0, 120)",
                undo)
            self.assertIn(on_top, ("undo", "notices"), f"{size[0]} px")
            self.driver.execute_script("arguments[0].click()", undo)
            self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".action-card[data-state='undone']")))

    def test_21_the_seed_is_a_setting_that_says_what_0_means(self):
        before = api("/api/settings")
        try:
            self.open(DESKTOP, path="/#/settings")
            self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#advanced summary"))).click()
            seed = self.find("#settings-form input[name='seed']")
            self.assertEqual(seed.get_attribute("value"), "0")
            self.assertIn("0 rolls the dice afresh", self.find("#help-seed").text)
            seed.clear()
            seed.send_keys("1234")
            self.find("#settings-form .save-bar button").click()
            self.wait.until(EC.text_to_be_present_in_element((By.ID, "settings-status"), "Saved."))
            self.assertEqual(api("/api/settings")["seed"], 1234)
            # Emptied, the field is 0 again: a new seed every answer. The preset is left as it was.
            seed.clear()
            self.find("#settings-form .save-bar button").click()
            self.wait.until(lambda _: api("/api/settings")["seed"] == 0)
            self.assertEqual(api("/api/settings")["preset"], before["preset"])
        finally:
            api("/api/settings", "PUT", before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
