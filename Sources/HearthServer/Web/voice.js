// Speaking instead of typing: the microphone button records in the browser, the server transcribes with
// its local Whisper model (POST /v1/audio/transcriptions), and the text lands in the message box to be
// checked and sent. While the words are spoken, the audio so far is transcribed again every moment and shown in
// the box (marked as not final), then replaced by the whole recording's transcript. Click to start and click to
// finish, or hold while speaking; Esc cancels. With "send once you stop speaking" on, a moment of quiet after
// speech finishes and sends; finishing by hand never sends. The browser asks for the microphone only when the
// button is first used. Answers are read aloud by Hearth's own voice.
import { $, api, el, showError } from "/assets/api.js";
import { Speaker } from "/assets/speaker.js";
import { state } from "/assets/state.js";

const recorder = {
  stream: null, context: null, source: null, processor: null, analyser: null, chunks: [], rate: 16000, startedAt: 0,
  meterFrame: 0,
  // The box's text around the cursor when dictation started: the words heard go between.
  anchor: null,
  // A new number for each recording, so that a partial transcript that comes back late is dropped.
  take: 0, partialTimer: 0, partialInFlight: false, partialSamples: 0,
  // Whether speech was heard, and since when it has been quiet (for sending once the speaker stops).
  heard: false, quietSince: 0,
};
/// How often the audio so far is transcribed while it is spoken, and how long the quiet before an auto-send is.
const PARTIAL_EVERY_MS = 1200;
const QUIET_BEFORE_SEND_MS = 1500;
let recording = false;
let busy = false;

export function setUpVoice() {
  const button = $("mic");
  if (!button) return;
  // Nothing is sent while the words are still coming: the box holds a transcript not yet final.
  $("composer").addEventListener("submit", (event) => {
    if (!recording && !busy) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || busy) return;
    if (!recording) start();
    else finish();
  });
  // Held down for a while and released: a push-to-talk recording ends here.
  button.addEventListener("pointerup", () => {
    if (recording && performance.now() - recorder.startedAt > 600) finish();
  });
  button.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    if (busy) return;
    if (!recording) start(); else finish();
  });
  // Before the page's own Esc (which stops an answer): a recording is cancelled first.
  window.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && recording) {
      event.preventDefault();
      event.stopImmediatePropagation();
      cancel();
    }
  }, true);
}

function status(text) {
  $("voice-status").textContent = text;
  $("voice-status").hidden = !text;
}

async function start() {
  if (!navigator.mediaDevices?.getUserMedia) {
    showError("The microphone is only available on a secure page: open Hearth at http://localhost on this machine, or over https.");
    return;
  }
  recording = true;
  recorder.startedAt = performance.now();
  setButton("recording");
  status("Listening… click the microphone again to finish, Esc to cancel.");
  try {
    recorder.stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    recording = false;
    setButton("idle");
    status("");
    showError(error?.name === "NotAllowedError"
      ? "Microphone access was refused. Allow it in the browser's site settings to dictate."
      : `The microphone could not be opened (${error?.message ?? error}).`);
    return;
  }
  if (!recording) { stopStream(); return; } // cancelled while the browser was asking
  const context = new AudioContext();
  recorder.context = context;
  recorder.rate = context.sampleRate;
  recorder.chunks = [];
  recorder.source = context.createMediaStreamSource(recorder.stream);
  recorder.analyser = context.createAnalyser();
  recorder.analyser.fftSize = 1024;
  // A script processor hands over raw samples on the main thread; dictation is short, and it needs no
  // separate worklet file.
  recorder.processor = context.createScriptProcessor(4096, 1, 1);
  recorder.processor.onaudioprocess = (event) => {
    if (recording) recorder.chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
  };
  recorder.source.connect(recorder.analyser);
  recorder.source.connect(recorder.processor);
  recorder.processor.connect(context.destination);
  const box = $("prompt");
  recorder.anchor = { before: box.value.slice(0, box.selectionStart), after: box.value.slice(box.selectionEnd) };
  // The box is the transcript's while the words come: typing would be written over.
  recorder.placed = box.value;
  box.readOnly = true;
  recorder.take += 1;
  Object.assign(recorder, { partialInFlight: false, partialSamples: 0, heard: false, quietSince: 0 });
  recorder.partialTimer = setInterval(transcribeSoFar, PARTIAL_EVERY_MS);
  meter();
}

/// Transcribes what has been said so far and shows it in the box, one request at a time.
function transcribeSoFar() {
  if (!recording || recorder.partialInFlight) return;
  const total = recorder.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (total < recorder.rate * 0.8 || total === recorder.partialSamples) return;
  const take = recorder.take;
  recorder.partialInFlight = true;
  recorder.partialSamples = total;
  transcribe(recorder.chunks.slice(), total, recorder.rate, 16000)
    .then((text) => { if (recording && take === recorder.take && text) place(text, { final: false }); })
    // A partial transcript is only a preview: the final one, made when the recording ends, reports failures.
    .catch(() => {})
    .finally(() => { if (take === recorder.take) recorder.partialInFlight = false; });
}

/// The recording as WAV (at `toRate` when given, else its own rate), transcribed on the server.
async function transcribe(chunks, total, rate, toRate) {
  const form = new FormData();
  const audio = toRate && toRate < rate ? resample(chunks, total, rate, toRate) : { chunks, total, rate };
  form.append("file", new Blob([wav(audio.chunks, audio.total, audio.rate)], { type: "audio/wav" }), "dictation.wav");
  form.append("model", "whisper-1");
  const reply = await (await api("/v1/audio/transcriptions", { method: "POST", body: form })).json();
  return (reply.text ?? "").trim();
}

/// The samples at a lower rate, by linear interpolation (a partial transcript needs no more than Whisper's 16 kHz).
function resample(chunks, total, rate, toRate) {
  const joined = new Float32Array(total);
  let offset = 0;
  for (const chunk of chunks) { joined.set(chunk, offset); offset += chunk.length; }
  const length = Math.floor(total * toRate / rate);
  const out = new Float32Array(length);
  const step = rate / toRate;
  for (let i = 0; i < length; i++) {
    const at = i * step;
    const low = Math.floor(at);
    const high = Math.min(low + 1, total - 1);
    out[i] = joined[low] + (joined[high] - joined[low]) * (at - low);
  }
  return { chunks: [out], total: length, rate: toRate };
}

/// Shows `text` between what was before and after the cursor when dictation began; a partial transcript is
/// marked as such until the final one replaces it.
function place(text, { final }) {
  const box = $("prompt");
  // Changed under the recording (another chat's draft came in): the words go after what is there now.
  if (box.value !== recorder.placed) recorder.anchor = { before: box.value, after: "" };
  const { before, after } = recorder.anchor ?? { before: box.value, after: "" };
  const spacer = before && text && !/\s$/.test(before) ? " " : "";
  const tail = after && text && !/^\s/.test(after) ? " " : "";
  box.value = `${before}${spacer}${text}${tail}${after}`;
  box.classList.toggle("dictating", !final);
  const cursor = before.length + spacer.length + text.length;
  box.setSelectionRange(cursor, cursor);
  recorder.placed = box.value;
  box.dispatchEvent(new Event("input"));
  if (final) box.focus();
}

function meter() {
  const analyser = recorder.analyser;
  if (!analyser || !recording) return;
  const samples = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(samples);
  let sum = 0;
  for (const value of samples) sum += value * value;
  const rms = Math.sqrt(sum / samples.length);
  // -60 dBFS and below shows empty; 0 dBFS full.
  const decibels = 20 * Math.log10(rms + 1e-9);
  const level = Math.max(0, Math.min(1, 1 + decibels / 60));
  $("mic-level").style.setProperty("--level", level.toFixed(3));
  $("mic").dataset.level = level.toFixed(2);
  // Speech is above -38 dBFS; quiet below -45. Only quiet after speech counts towards sending.
  if (decibels > -38) recorder.heard = true;
  if (decibels >= -45) recorder.quietSince = 0;
  else if (recorder.heard && !recorder.quietSince) recorder.quietSince = performance.now();
  if (state.settings?.voice_auto_send === true && recorder.quietSince
      && performance.now() - recorder.quietSince > QUIET_BEFORE_SEND_MS) {
    finish({ send: true });
    return;
  }
  recorder.meterFrame = requestAnimationFrame(meter);
}

function stopStream() {
  cancelAnimationFrame(recorder.meterFrame);
  clearInterval(recorder.partialTimer);
  $("prompt").readOnly = false;
  recorder.processor?.disconnect();
  recorder.source?.disconnect();
  recorder.stream?.getTracks().forEach((track) => track.stop());
  recorder.context?.close();
  Object.assign(recorder, { stream: null, context: null, source: null, processor: null, analyser: null });
  $("mic-level").style.setProperty("--level", "0");
}

function cancel() {
  recording = false;
  stopStream();
  recorder.chunks = [];
  // What a partial transcript put in the box goes with the recording.
  if (recorder.anchor && $("prompt").value === recorder.placed) place("", { final: true });
  recorder.anchor = null;
  setButton("idle");
  status("Dictation cancelled.");
  setTimeout(() => { if (!recording && !busy) status(""); }, 2500);
}

/// Ends the recording and puts its transcript in the box, in place of any partial one; `send` (a moment of quiet
/// with auto-send on) sends it too.
async function finish({ send = false } = {}) {
  recording = false;
  const chunks = recorder.chunks;
  recorder.chunks = [];
  stopStream();
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (total === 0) { setButton("idle"); status(""); return; }
  busy = true;
  setButton("busy");
  status("Transcribing on this machine…");
  let sending = false;
  try {
    const text = await transcribe(chunks, total, recorder.rate);
    place(text, { final: true });
    status(text ? "" : "No speech was heard.");
    sending = send && Boolean(text);
  } catch (error) {
    // The last partial transcript stays in the box, as words to check.
    $("prompt").classList.remove("dictating");
    showError(`The recording could not be transcribed: ${error.message}`);
    status("");
  } finally {
    recorder.anchor = null;
    busy = false;
    setButton("idle");
  }
  if (sending) $("composer").requestSubmit();
}

function setButton(mode) {
  const button = $("mic");
  button.classList.toggle("recording", mode === "recording");
  button.classList.toggle("busy", mode === "busy");
  button.setAttribute("aria-pressed", mode === "recording" ? "true" : "false");
  button.setAttribute("aria-label", mode === "recording" ? "Finish dictation" : "Dictate");
  button.disabled = mode === "busy";
}

/// 16-bit PCM WAV, mono, at the recording's own rate (the server resamples).
function wav(chunks, total, rate) {
  const buffer = new ArrayBuffer(44 + total * 2);
  const view = new DataView(buffer);
  const text = (offset, value) => { for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i)); };
  text(0, "RIFF"); view.setUint32(4, 36 + total * 2, true); text(8, "WAVE");
  text(12, "fmt "); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true);
  text(36, "data"); view.setUint32(40, total * 2, true);
  let offset = 44;
  for (const chunk of chunks) {
    for (const value of chunk) {
      view.setInt16(offset, Math.max(-1, Math.min(1, value)) * 0x7fff, true);
      offset += 2;
    }
  }
  return buffer;
}

/// A button that reads an answer aloud with Hearth's own voice, made on this machine sentence by sentence; one
/// answer is read at a time.
export function readAloudButton(text) {
  if (!text.trim() || !("AudioContext" in window)) return null;
  const button = el("button", { class: "link-button read-aloud", type: "button", "aria-label": "Read aloud" }, "Read aloud");
  button.addEventListener("click", () => {
    if (reading.button === button) {
      reader.stop();
      return;
    }
    reader.stop();
    reading.button = button;
    button.textContent = "Stop reading";
    button.setAttribute("aria-label", "Stop reading");
    reader.say(text);
  });
  return button;
}

const reading = { button: null };
const reader = new Speaker({
  onState(state, error) {
    if (state === "error") showError(`The answer could not be read aloud: ${error.message}`);
    if (state === "speaking" || !reading.button) return;
    reading.button.textContent = "Read aloud";
    reading.button.setAttribute("aria-label", "Read aloud");
    reading.button = null;
  },
});
