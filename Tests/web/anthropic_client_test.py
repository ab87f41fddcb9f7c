"""The official Anthropic Python client, unchanged, against `hearth serve`'s Messages API.

Usage: anthropic_client_test.py BASE_URL [KEYED_URL]   (HEARTH_KEYED_KEY: the key of the keyed server)
"""

import json
import os
import sys
import unittest

import anthropic

BASE_URL = sys.argv.pop(1) if len(sys.argv) > 1 else "http://127.0.0.1:8080"
MODEL = "SmolLM2-135M-Instruct.Q4_1.gguf"
QUESTION = [{"role": "user", "content": "What is the capital of France?"}]
# Anthropic's 2.x clients no longer name temperature; it still goes on the wire, as older clients send it.
GREEDY = {"extra_body": {"temperature": 0}}
WEATHER = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


class AnthropicClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = anthropic.Anthropic(base_url=BASE_URL, api_key="unused", max_retries=0, timeout=120)

    def test_a_whole_message(self):
        message = self.client.messages.create(
            **GREEDY, model=MODEL, max_tokens=24, messages=QUESTION, system="Answer in one short sentence.")
        self.assertEqual(message.type, "message")
        self.assertEqual(message.role, "assistant")
        self.assertEqual(message.model, MODEL)
        self.assertEqual(message.content[0].type, "text")
        self.assertIn("Paris", message.content[0].text)
        self.assertIn(message.stop_reason, ["end_turn", "max_tokens"])
        self.assertGreater(message.usage.input_tokens, 10)
        self.assertGreater(message.usage.output_tokens, 0)

    def test_stop_sequences_and_max_tokens_say_why_the_message_ended(self):
        short = self.client.messages.create(**GREEDY, model=MODEL, max_tokens=2, messages=QUESTION)
        self.assertEqual(short.stop_reason, "max_tokens")
        self.assertEqual(short.usage.output_tokens, 2)
        stopped = self.client.messages.create(
            **GREEDY, model=MODEL, max_tokens=40, messages=QUESTION, stop_sequences=["Paris"])
        self.assertEqual(stopped.stop_reason, "stop_sequence")
        self.assertEqual(stopped.stop_sequence, "Paris")
        self.assertNotIn("Paris", stopped.content[0].text)

    def test_a_streamed_message_sends_the_typed_events_in_order(self):
        kinds = []
        text = ""
        with self.client.messages.stream(**GREEDY, model=MODEL, max_tokens=24, messages=QUESTION) as stream:
            for event in stream:
                kinds.append(event.type)
                if event.type == "content_block_delta":
                    text += event.delta.text
            final = stream.get_final_message()
        self.assertEqual(kinds[0], "message_start")
        self.assertIn("content_block_start", kinds)
        self.assertGreater(kinds.count("content_block_delta"), 1)
        self.assertEqual(kinds[-1], "message_stop")
        self.assertLess(kinds.index("content_block_stop"), kinds.index("message_delta"))
        self.assertEqual(final.content[0].text, text)
        self.assertIn("Paris", text)
        self.assertGreater(final.usage.output_tokens, 0)

    def test_a_tool_round_trip(self):
        first = self.client.messages.create(
            **GREEDY, model=MODEL, max_tokens=80, tools=[WEATHER],
            tool_choice={"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True},
            messages=[{"role": "user", "content": "What is the weather in Lyon?"}])
        self.assertEqual(first.stop_reason, "tool_use")
        call = next(block for block in first.content if block.type == "tool_use")
        self.assertEqual(call.name, "get_weather")
        self.assertIsInstance(call.input.get("city"), str)
        self.assertTrue(call.id.startswith("toolu_"))
        second = self.client.messages.create(
            **GREEDY, model=MODEL, max_tokens=40, tools=[WEATHER], tool_choice={"type": "none"},
            messages=[
                {"role": "user", "content": "What is the weather in Lyon?"},
                {"role": "assistant", "content": first.content},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": call.id, "content": "Sunny, 21 degrees"}]},
            ])
        self.assertEqual(second.stop_reason in ["end_turn", "max_tokens"], True)
        self.assertTrue(second.content[0].text)

    def test_a_streamed_tool_call(self):
        with self.client.messages.stream(
            **GREEDY, model=MODEL, max_tokens=80, tools=[WEATHER], tool_choice={"type": "any"},
            messages=[{"role": "user", "content": "Weather in Oslo?"}]) as stream:
            final = stream.get_final_message()
        self.assertEqual(final.stop_reason, "tool_use")
        self.assertEqual([block.type for block in final.content][-1], "tool_use")

    def test_an_output_format_holds_the_answer_to_its_schema(self):
        schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                  "additionalProperties": False}
        message = self.client.messages.create(
            **GREEDY, model=MODEL, max_tokens=40, messages=[{"role": "user", "content": "Name a city in France."}],
            output_config={"format": {"type": "json_schema", "schema": schema}})
        answer = json.loads(message.content[0].text)
        self.assertEqual(list(answer), ["city"])
        with self.assertRaises(anthropic.BadRequestError) as refused:
            self.client.messages.create(
                model=MODEL, max_tokens=4, messages=QUESTION, output_config={"effort": "high"})
        self.assertIn("effort", str(refused.exception))

    def test_counting_tokens(self):
        counted = self.client.messages.count_tokens(model=MODEL, messages=QUESTION)
        whole = self.client.messages.create(**GREEDY, model=MODEL, max_tokens=1, messages=QUESTION)
        self.assertEqual(counted.input_tokens, whole.usage.input_tokens)

    def test_what_cannot_be_honoured_is_refused_by_name_in_anthropics_shape(self):
        for extra, name in [({"thinking": {"type": "enabled", "budget_tokens": 1024}}, "thinking"),
                            ({"metadata": {"user_id": "u"}}, "metadata"),
                            ({"service_tier": "auto"}, "service_tier")]:
            with self.assertRaises(anthropic.BadRequestError) as refused:
                self.client.messages.create(**GREEDY, model=MODEL, max_tokens=4, messages=QUESTION, **extra)
            self.assertIn(name, str(refused.exception))
            self.assertEqual(refused.exception.body["type"], "error")
            self.assertEqual(refused.exception.body["error"]["type"], "invalid_request_error")
        with self.assertRaises(anthropic.BadRequestError) as image:
            self.client.messages.create(**GREEDY, model=MODEL, max_tokens=4, messages=[{"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]}])
        self.assertIn("image", str(image.exception))
        with self.assertRaises(anthropic.NotFoundError):
            self.client.messages.create(**GREEDY, model="claude-sonnet-4-5", max_tokens=4, messages=QUESTION)

    @unittest.skipUnless(os.environ.get("HEARTH_KEYED_URL"), "no keyed server")
    def test_the_key_goes_in_x_api_key(self):
        keyed = anthropic.Anthropic(
            base_url=os.environ["HEARTH_KEYED_URL"], api_key=os.environ["HEARTH_KEYED_KEY"], max_retries=0)
        message = keyed.messages.create(model=MODEL, max_tokens=4, messages=QUESTION)
        self.assertEqual(message.type, "message")
        wrong = anthropic.Anthropic(base_url=os.environ["HEARTH_KEYED_URL"], api_key="wrong-key", max_retries=0)
        with self.assertRaises(anthropic.AuthenticationError) as refused:
            wrong.messages.create(model=MODEL, max_tokens=4, messages=QUESTION)
        self.assertEqual(refused.exception.body["error"]["type"], "authentication_error")


if __name__ == "__main__":
    unittest.main(verbosity=2)
