// Hands-free conversation: Hearth listens, hears where a sentence ends, sends it, reads the answer aloud as it is
// written, and listens again. Speaking while Hearth talks interrupts it (barge-in). Everything runs on this
// machine: the server finds speech with Silero VAD (POST /api/voice/activity), transcribes with Whisper and
// speaks with its Piper voice; the browser only records and plays.
import { $, api, showError } from "/assets/api.js";
import { Speaker } from "/assets/speaker.js";
import { listenToAnswers, stop as stopAnswer } from "/assets/turn.js";
import { shownText } from "/assets/actions.js";
import { currentTurn, state as chats } from "/assets/state.js";

const rate = 16000;
const hop = 4096;                 // samples per look (256 ms)
const context = 8000;             // samples heard again before each look, so the detector's memory is warm
const preRoll = 4800;             // samples kept from before the speech was found (300 ms)
const speechAt = 0.5;             // probability that starts an utterance
const silenceAt = 0.35;           // below it, silence
const silenceToEnd = 0.8;         // seconds of silence that end an utterance
const longest = 30;               // seconds: an utterance is sent at this length whatever follows

const mode = { on: false, phase: "off", session: null };
const audio = { stream: null, context: null, source: null, processor: null, recent: new Float32Array(0), utterance: [], silence: 0, looking: false };
const speaker = new Speaker({
  onState(state, error) {
    if (state === "error") showError(`The answer could not be read aloud: ${error.message}`);
    if (state === "speaking") setPhase("speaking");
    else if (mode.on && mode.phase === "speaking" && !currentTurn()) setPhase("listening");
  },
});

export function setUpHandsFree() {
  const button = $("talk");
  if (!button) return;
  button.addEventListener("click", () => (mode.on ? turnOff() : turnOn()));
  listenToAnswers({
    text(session, shown) {
      if (mode.on && session === mode.session && mode.phase !== "hearing") speaker.feed(shown);
    },
    end(session, answer) {
      // An answer quicker than the wait for its turn is still the one asked for.
      if (mode.on && mode.phase === "thinking" && !mode.session && session === chats.current?.id) mode.session = session;
      if (!mode.on || session !== mode.session) return;
      mode.session = null;
      if (answer.state === "complete") speaker.finish(shownText(answer));
      else speaker.finish();
      if (!speaker.active && mode.phase !== "hearing") setPhase("listening");
    },
  });
}

function setPhase(phase) {
  mode.phase = phase;
  const words = {
    off: "",
    starting: "Opening the microphone…",
    listening: "Listening — speak when you are ready.",
    hearing: "Hearing you…",
    transcribing: "Transcribing on this machine…",
    thinking: "Thinking…",
    speaking: "Speaking — talk to interrupt.",
  };
  const status = $("voice-status");
  status.textContent = words[phase] ?? "";
  status.hidden = phase === "off";
  status.dataset.phase = phase;
  const button = $("talk");
  button.dataset.phase = phase;
  button.classList.toggle("recording", phase !== "off");
  button.setAttribute("aria-pressed", phase === "off" ? "false" : "true");
  button.setAttribute("aria-label", phase === "off" ? "Talk hands-free" : "End hands-free talk");
}

async function turnOn() {
  if (!navigator.mediaDevices?.getUserMedia) {
    showError("The microphone is only available on a secure page: open Hearth at http://localhost on this machine, or over https.");
    return;
  }
  mode.on = true;
  setPhase("starting");
  try {
    audio.stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    mode.on = false;
    setPhase("off");
    showError(error?.name === "NotAllowedError"
      ? "Microphone access was refused. Allow it in the browser's site settings to talk hands-free."
      : `The microphone could not be opened (${error?.message ?? error}).`);
    return;
  }
  if (!mode.on) { release(); return; }
  audio.context = new AudioContext({ sampleRate: rate });
  audio.source = audio.context.createMediaStreamSource(audio.stream);
  // Raw samples on the main thread: one look every 256 ms needs no worklet file.
  audio.processor = audio.context.createScriptProcessor(hop, 1, 1);
  audio.processor.onaudioprocess = (event) => hear(toRate(event.inputBuffer.getChannelData(0), audio.context.sampleRate));
  audio.source.connect(audio.processor);
  audio.processor.connect(audio.context.destination);
  Object.assign(audio, { recent: new Float32Array(0), utterance: [], silence: 0 });
  setPhase("listening");
}

function turnOff() {
  mode.on = false;
  mode.session = null;
  speaker.stop();
  release();
  setPhase("off");
}

function release() {
  audio.processor?.disconnect();
  audio.source?.disconnect();
  audio.stream?.getTracks().forEach((track) => track.stop());
  audio.context?.close();
  Object.assign(audio, { stream: null, context: null, source: null, processor: null, utterance: [] });
}

/// Each 256 ms of sound: looked at by the server's detector, unless the last look has not come back yet.
async function hear(samples) {
  if (!mode.on) return;
  const recent = concat(audio.recent, samples);
  audio.recent = recent.slice(Math.max(0, recent.length - context - hop));
  if (mode.phase === "hearing") audio.utterance.push(samples);
  if (audio.looking || mode.phase === "transcribing" || mode.phase === "starting") return;
  audio.looking = true;
  let probabilities;
  try {
    const reply = await api("/api/voice/activity", { method: "POST", type: "audio/pcm", body: pcm16(audio.recent) });
    probabilities = (await reply.json()).probabilities;
  } catch (error) {
    audio.looking = false;
    showError(`Hands-free talk stopped: ${error.message}`);
    turnOff();
    return;
  }
  audio.looking = false;
  if (!mode.on) return;
  // The newest quarter second is what this look is about.
  const newest = probabilities.slice(-Math.ceil(samples.length / 512));
  const loudest = Math.max(0, ...newest);
  if (mode.phase !== "hearing") {
    if (loudest >= speechAt) startUtterance();
    return;
  }
  audio.silence = loudest < silenceAt ? audio.silence + samples.length / rate : 0;
  const heard = audio.utterance.reduce((sum, chunk) => sum + chunk.length, 0) / rate;
  if (audio.silence >= silenceToEnd || heard >= longest) endUtterance();
}

function startUtterance() {
  const answering = mode.session;
  setPhase("hearing");
  mode.session = null;
  // Barge-in: Hearth stops talking (and writing) as soon as the person speaks.
  speaker.stop();
  if (answering && currentTurn()?.session === answering) stopAnswer();
  const before = audio.recent.slice(Math.max(0, audio.recent.length - preRoll - hop));
  audio.utterance = [before];
  audio.silence = 0;
}

async function endUtterance() {
  const chunks = audio.utterance;
  audio.utterance = [];
  setPhase("transcribing");
  let text = "";
  try {
    const form = new FormData();
    form.append("file", new Blob([wav(concatAll(chunks))], { type: "audio/wav" }), "utterance.wav");
    form.append("model", "whisper-1");
    text = ((await (await api("/v1/audio/transcriptions", { method: "POST", body: form })).json()).text ?? "").trim();
  } catch (error) {
    showError(`What you said could not be transcribed: ${error.message}`);
  }
  if (!mode.on) return;
  if (!text) { setPhase("listening"); return; }
  if (currentTurn()) {
    // The chat is still answering something else: the words wait in the box rather than being lost.
    $("prompt").value = text;
    setPhase("listening");
    return;
  }
  speaker.stop();
  setPhase("thinking");
  $("prompt").value = text;
  $("composer").requestSubmit();
  // Sending makes the chat first when there is none: the turn appears a moment later, and its answer's words
  // then go to the speaker (each update carries the whole answer so far, so none are missed meanwhile).
  const deadline = performance.now() + 10000;
  while (mode.on && mode.phase === "thinking" && !mode.session && performance.now() < deadline) {
    const turn = currentTurn();
    if (turn) { mode.session = turn.session; return; }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (mode.on && mode.phase === "thinking" && !mode.session) setPhase("listening");
}

function toRate(samples, from) {
  if (from === rate) return new Float32Array(samples);
  const out = new Float32Array(Math.floor(samples.length * rate / from));
  for (let i = 0; i < out.length; i++) {
    const position = i * from / rate;
    const index = Math.floor(position);
    const next = Math.min(index + 1, samples.length - 1);
    out[i] = samples[index] + (samples[next] - samples[index]) * (position - index);
  }
  return out;
}

function concat(a, b) {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function concatAll(chunks) {
  return chunks.reduce((all, chunk) => concat(all, chunk), new Float32Array(0));
}

function pcm16(samples) {
  const view = new DataView(new ArrayBuffer(samples.length * 2));
  samples.forEach((value, index) => view.setInt16(index * 2, Math.max(-1, Math.min(1, value)) * 0x7fff, true));
  return view.buffer;
}

function wav(samples) {
  const data = pcm16(samples);
  const header = new DataView(new ArrayBuffer(44));
  const text = (offset, value) => { for (let i = 0; i < value.length; i++) header.setUint8(offset + i, value.charCodeAt(i)); };
  text(0, "RIFF"); header.setUint32(4, 36 + data.byteLength, true); text(8, "WAVE");
  text(12, "fmt "); header.setUint32(16, 16, true); header.setUint16(20, 1, true); header.setUint16(22, 1, true);
  header.setUint32(24, rate, true); header.setUint32(28, rate * 2, true); header.setUint16(32, 2, true); header.setUint16(34, 16, true);
  text(36, "data"); header.setUint32(40, data.byteLength, true);
  return new Blob([header.buffer, data]);
}
