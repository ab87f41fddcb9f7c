"""The official OpenAI Python client, unchanged, against `hearth serve`.

Usage: openai_client_test.py BASE_URL
"""

import json
import sys
import unittest

import openai

BASE_URL = sys.argv.pop(1) if len(sys.argv) > 1 else "http://127.0.0.1:8080"
QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


class OpenAIClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = openai.OpenAI(base_url=f"{BASE_URL}/v1", api_key="unused", max_retries=0, timeout=120)

    def test_models_lists_the_loaded_model(self):
        models = [model.id for model in self.client.models.list()]
        self.assertEqual(models, ["SmolLM2-135M-Instruct.Q4_1.gguf"])

    def test_completion(self):
        reply = self.client.chat.completions.create(
            model="SmolLM2-135M-Instruct", messages=QUESTION, temperature=0, max_tokens=30
        )
        self.assertIn("Paris", reply.choices[0].message.content)
        self.assertIn(reply.choices[0].finish_reason, ("stop", "length"))
        self.assertGreater(reply.usage.completion_tokens, 0)
        self.assertEqual(reply.usage.total_tokens, reply.usage.prompt_tokens + reply.usage.completion_tokens)

    def test_streaming_matches_the_whole_answer(self):
        whole = self.client.chat.completions.create(model="hearth", messages=QUESTION, temperature=0, max_tokens=24)
        stream = self.client.chat.completions.create(
            model="hearth",
            messages=QUESTION,
            temperature=0,
            max_tokens=24,
            stream=True,
            stream_options={"include_usage": True},
        )
        pieces, finish, usage = [], None, None
        for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage
            for choice in chunk.choices:
                pieces.append(choice.delta.content or "")
                finish = choice.finish_reason or finish
        self.assertEqual("".join(pieces), whole.choices[0].message.content)
        self.assertIsNotNone(finish)
        self.assertEqual(usage.completion_tokens, whole.usage.completion_tokens)

    def test_json_schema_response_format(self):
        schema = {
            "type": "object",
            "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
            "required": ["city", "country"],
            "additionalProperties": False,
        }
        reply = self.client.chat.completions.create(
            model="hearth",
            messages=[{"role": "user", "content": "Which city is the capital of France? Answer in JSON."}],
            temperature=0,
            max_tokens=60,
            response_format={"type": "json_schema", "json_schema": {"name": "capital", "schema": schema, "strict": True}},
        )
        answer = json.loads(reply.choices[0].message.content)
        self.assertEqual(sorted(answer), ["city", "country"])
        self.assertIsInstance(answer["city"], str)

    def test_errors_raise_the_clients_own_exceptions(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="hearth", messages=[], max_tokens=5)
        self.assertIn("messages", caught.exception.message)
        with self.assertRaises(openai.BadRequestError):
            self.client.chat.completions.create(model="hearth", messages=QUESTION, temperature=7)


if __name__ == "__main__":
    unittest.main(verbosity=2)
