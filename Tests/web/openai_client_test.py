"""The official OpenAI Python client, unchanged, against `hearth serve`.

Usage: openai_client_test.py BASE_URL
"""

import json
import os
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

    def test_embeddings(self):
        # The client asks for base64 and decodes it itself: the compact path, checked against floats.
        reply = self.client.embeddings.create(
            model="all-MiniLM-L6-v2", input=["The cat sits on the mat.", "A kitten rests on a rug.", "Tax forms"]
        )
        vectors = [item.embedding for item in reply.data]
        self.assertEqual([len(vector) for vector in vectors], [384, 384, 384])
        self.assertEqual([item.index for item in reply.data], [0, 1, 2])
        self.assertGreater(reply.usage.prompt_tokens, 6)
        dot = lambda a, b: sum(x * y for x, y in zip(a, b))
        self.assertAlmostEqual(dot(vectors[0], vectors[0]), 1.0, places=3)
        self.assertGreater(dot(vectors[0], vectors[1]), dot(vectors[0], vectors[2]) + 0.2)
        floats = self.client.embeddings.create(
            model="all-MiniLM-L6-v2", input="The cat sits on the mat.", encoding_format="float"
        )
        self.assertTrue(all(abs(a - b) < 1e-5 for a, b in zip(floats.data[0].embedding, vectors[0])))
        with self.assertRaises(openai.BadRequestError) as refused:
            self.client.embeddings.create(model="all-MiniLM-L6-v2", input="x", dimensions=128)
        self.assertIn("dimensions", str(refused.exception))

    def test_audio_transcriptions_in_each_format(self):
        path = os.environ["HEARTH_JFK_WAV"]
        with open(path, "rb") as audio:
            whole = self.client.audio.transcriptions.create(model="whisper-1", file=audio)
        self.assertIn("ask not what your country can do for you", whole.text.lower())
        with open(path, "rb") as audio:
            text = self.client.audio.transcriptions.create(model="whisper-1", file=audio, response_format="text")
        self.assertEqual(text.strip(), whole.text)
        with open(path, "rb") as audio:
            verbose = self.client.audio.transcriptions.create(
                model="whisper-1",
                file=audio,
                response_format="verbose_json",
                timestamp_granularities=["segment"],
                language="en",
                prompt="Kennedy's inaugural address.",
            )
        self.assertEqual(verbose.language, "english")
        self.assertAlmostEqual(verbose.duration, 11.0, places=2)
        self.assertGreater(len(verbose.segments), 0)
        self.assertLess(verbose.segments[0].start, verbose.segments[0].end)
        with open(path, "rb") as audio:
            srt = self.client.audio.transcriptions.create(model="whisper-1", file=audio, response_format="srt")
        # The speech starts 0.32 s in: the silence before it is cut (all but 0.2 s), times count from the start.
        self.assertRegex(srt, r"^1\n00:00:00,[0-4]\d\d --> ")
        with open(path, "rb") as audio, self.assertRaises(openai.BadRequestError) as refused:
            self.client.audio.transcriptions.create(
                model="whisper-1", file=audio, response_format="verbose_json", timestamp_granularities=["word"]
            )
        self.assertIn("timestamp_granularities", str(refused.exception))

    def test_audio_speech_is_heard_back(self):
        # Spoken by Hearth's voice through the client's speech API, then heard by its transcription API.
        sentence = "Remember to water the plants in the kitchen."
        speech = self.client.audio.speech.create(model="tts-1", voice="alloy", input=sentence, response_format="wav")
        audio = speech.read()
        self.assertEqual(audio[:4], b"RIFF")
        heard = self.client.audio.transcriptions.create(model="whisper-1", file=("speech.wav", audio)).text
        words = lambda text: "".join(c if c.isalnum() else " " for c in text.lower()).split()
        self.assertEqual(words(heard), words(sentence), heard)
        with self.client.audio.speech.with_streaming_response.create(
            model="tts-1", voice="alloy", input="One. Two. Three.", response_format="pcm"
        ) as streamed:
            pcm = b"".join(streamed.iter_bytes())
        self.assertEqual(len(pcm) % 2, 0)
        self.assertGreater(len(pcm), 24000)  # more than half a second at 24 kHz
        with self.assertRaises(openai.BadRequestError) as refused:
            self.client.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", response_format="mp3")
        self.assertIn("response_format", str(refused.exception))

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

    WEATHER = [{
        "type": "function",
        "function": {
            "name": "get_weather", "description": "Get the weather in a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }]

    def test_tool_calls_whole_and_streamed(self):
        ask = [{"role": "user", "content": "What is the weather in Paris?"}]
        reply = self.client.chat.completions.create(
            model="hearth", messages=ask, tools=self.WEATHER, tool_choice="required", temperature=0)
        self.assertEqual(reply.choices[0].finish_reason, "tool_calls")
        call = reply.choices[0].message.tool_calls[0]
        self.assertEqual(call.function.name, "get_weather")
        self.assertIsInstance(json.loads(call.function.arguments)["city"], str)

        stream = self.client.chat.completions.create(
            model="hearth", messages=ask, tools=self.WEATHER, temperature=0, stream=True,
            tool_choice={"type": "function", "function": {"name": "get_weather"}})
        names, arguments, finish = {}, {}, None
        for chunk in stream:
            if not chunk.choices:
                continue
            for delta in chunk.choices[0].delta.tool_calls or []:
                names[delta.index] = names.get(delta.index) or delta.function.name
                arguments[delta.index] = arguments.get(delta.index, "") + (delta.function.arguments or "")
            finish = chunk.choices[0].finish_reason or finish
        self.assertEqual((names[0], finish), ("get_weather", "tool_calls"))
        self.assertIn("city", json.loads(arguments[0]))

        # parallel_tool_calls false: one call at most, whatever the model would go on to write.
        single = self.client.chat.completions.create(
            model="hearth", messages=ask, tools=self.WEATHER, tool_choice="required", temperature=0,
            parallel_tool_calls=False)
        self.assertEqual(len(single.choices[0].message.tool_calls), 1)

        # The call and its result go back as the conversation continues; with tool_choice none, text comes back.
        follow = ask + [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": call.id, "type": "function", "function": {"name": "get_weather", "arguments": call.function.arguments}}]},
            {"role": "tool", "tool_call_id": call.id, "content": "Sunny, 21 C"},
        ]
        answer = self.client.chat.completions.create(
            model="hearth", messages=follow, tools=self.WEATHER, tool_choice="none", temperature=0, max_tokens=30)
        self.assertIsNone(answer.choices[0].message.tool_calls)
        self.assertTrue(answer.choices[0].message.content)

    def test_tool_mistakes_are_named(self):
        ask = [{"role": "user", "content": "Hi"}]
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(
                model="hearth", messages=ask, tools=self.WEATHER,
                tool_choice={"type": "function", "function": {"name": "get_time"}})
        self.assertEqual(caught.exception.body.get("param"), "tool_choice")
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(
                model="hearth", messages=ask + [{"role": "tool", "content": "x"}], tools=self.WEATHER)
        self.assertIn("tool_call_id", caught.exception.body.get("param"))

    def test_errors_raise_the_clients_own_exceptions(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="hearth", messages=[], max_tokens=5)
        self.assertIn("messages", caught.exception.message)
        with self.assertRaises(openai.BadRequestError):
            self.client.chat.completions.create(model="hearth", messages=QUESTION, temperature=7)

    def test_logprobs_logit_bias_and_several_choices(self):
        reply = self.client.chat.completions.create(
            model="hearth", messages=QUESTION, temperature=0, max_tokens=6, logprobs=True, top_logprobs=3
        )
        self.assertTrue(reply.system_fingerprint.startswith("b"))
        tokens = reply.choices[0].logprobs.content
        self.assertEqual("".join(token.token for token in tokens), reply.choices[0].message.content)
        self.assertTrue(all(token.logprob <= 0 and len(token.top_logprobs) == 3 for token in tokens))
        ids = self.client.post(
            "/tokenize", cast_to=object, body={"content": tokens[0].token, "parse_special": False}
        )["tokens"]
        banned = self.client.chat.completions.create(
            model="hearth", messages=QUESTION, temperature=0, max_tokens=1, logit_bias={str(ids[0]): -100}
        )
        self.assertEqual(banned.choices[0].message.content, tokens[0].top_logprobs[1].token)
        several = self.client.chat.completions.create(
            model="hearth", messages=QUESTION, temperature=1.2, seed=3, max_tokens=5, n=2
        )
        self.assertEqual([choice.index for choice in several.choices], [0, 1])
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="hearth", messages=QUESTION, user="someone")
        self.assertEqual(caught.exception.body.get("param"), "user")

    def test_text_completions(self):
        whole = self.client.completions.create(
            model="hearth", prompt="The capital of France is", temperature=0, max_tokens=8, logprobs=2
        )
        self.assertEqual(whole.object, "text_completion")
        self.assertIn("Paris", whole.choices[0].text)
        self.assertEqual("".join(whole.choices[0].logprobs.tokens), whole.choices[0].text)
        streamed = self.client.completions.create(
            model="hearth", prompt="The capital of France is", temperature=0, max_tokens=8, stream=True
        )
        self.assertEqual("".join(chunk.choices[0].text for chunk in streamed if chunk.choices), whole.choices[0].text)
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.completions.create(model="hearth", prompt="x", suffix="y")
        self.assertEqual(caught.exception.body.get("param"), "suffix")

    def test_responses_whole_streamed_and_continued(self):
        first = self.client.responses.create(
            model="hearth", input="What is the capital of France?", temperature=0, max_output_tokens=24,
        )
        self.assertIn("Paris", first.output_text)
        streamed = self.client.responses.create(
            model="hearth", input="What is the capital of France?", temperature=0, max_output_tokens=24, stream=True,
        )
        deltas, final = [], None
        for event in streamed:
            if event.type == "response.output_text.delta":
                deltas.append(event.delta)
            elif event.type in ("response.completed", "response.incomplete"):
                final = event.response
        self.assertEqual("".join(deltas), first.output_text)
        self.assertEqual(final.output_text, first.output_text)
        follow = self.client.responses.create(
            model="hearth", input="And of Italy?", previous_response_id=first.id, temperature=0, max_output_tokens=8
        )
        self.assertGreater(follow.usage.input_tokens, first.usage.input_tokens)
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.responses.create(model="hearth", input="Hi", tools=[{"type": "web_search_preview"}])
        self.assertEqual(caught.exception.body.get("param"), "tools")


if __name__ == "__main__":
    unittest.main(verbosity=2)
