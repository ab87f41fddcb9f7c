// Hearth's voice in the browser: text is spoken by the server's own voice (POST /v1/audio/speech, the Piper voice
// on this machine), sentence by sentence, so an answer starts to sound while it is still being written. The next
// sentence is made while the one before plays; stop() silences it at once and forgets what was left (barge-in).
import { api } from "/assets/api.js";

// A sentence ends at . ! or ? followed by a space or a line end, or at a line end itself; a run of text without
// either waits until more arrives or the text is finished.
const sentenceEnd = /[.!?](?=\s)|\n/g;
// Made ahead of the one playing: enough to never leave a gap, few enough that a stop wastes little.
const ahead = 2;

export class Speaker {
  constructor({ onState } = {}) {
    this.onState = onState ?? (() => {});
    this.context = null;
    this.reset();
  }

  reset() {
    this.fed = 0;           // characters of the text already cut into sentences
    this.text = "";
    this.pending = [];      // sentences not yet sent for speech
    this.made = [];         // promises of decoded audio, in order
    this.playing = null;    // the source now sounding
    this.finished = false;  // no more text will come
    this.generation = (this.generation ?? 0) + 1;
    this.controller = new AbortController();
  }

  /// Whether anything is sounding or waiting to.
  get active() {
    return Boolean(this.playing) || this.made.length > 0 || this.pending.length > 0;
  }

  /// The text so far (the whole of it each time, as an answer grows); complete sentences are spoken.
  feed(text) {
    this.text = text;
    this.cut(false);
  }

  /// No more text: what is left is spoken too.
  finish(text = this.text) {
    this.text = text;
    this.finished = true;
    this.cut(true);
    if (!this.active) this.onState("idle");
  }

  /// Speaks `text` whole (Read aloud).
  say(text) {
    this.stop();
    this.finish(text);
  }

  /// Silence now, and nothing of what was left.
  stop() {
    const wasActive = this.active;
    this.controller.abort();
    try { this.playing?.stop(); } catch { /* already ended */ }
    this.reset();
    if (wasActive) this.onState("idle");
  }

  cut(all) {
    const rest = this.text.slice(this.fed);
    let last = 0;
    for (const match of rest.matchAll(sentenceEnd)) {
      const end = match.index + match[0].length;
      this.queue(rest.slice(last, end));
      last = end;
    }
    if (all) {
      this.queue(rest.slice(last));
      last = rest.length;
    } else if (this.fed === 0 && last === 0) {
      // Nothing sounds yet and the first sentence is long: its first clause goes ahead, so the answer is heard
      // sooner (a comma is where a speaker pauses anyway).
      const clause = /^(?:\S+\s+){5,}?\S*,(?=\s)/u.exec(rest);
      if (clause) {
        this.queue(clause[0]);
        last = clause[0].length;
      }
    }
    this.fed += last;
    this.pump();
  }

  queue(sentence) {
    if (/[\p{L}\p{N}]/u.test(sentence)) this.pending.push(sentence.trim());
  }

  pump() {
    while (this.pending.length && this.made.length < ahead) {
      this.made.push(this.make(this.pending.shift()));
    }
    if (!this.playing && this.made.length) this.playNext();
  }

  async make(sentence) {
    const response = await api("/v1/audio/speech", {
      method: "POST", signal: this.controller.signal,
      json: { model: "tts-1", voice: "default", input: sentence, response_format: "wav" },
    });
    const bytes = await response.arrayBuffer();
    this.context ??= new AudioContext();
    return this.context.decodeAudioData(bytes);
  }

  async playNext() {
    const generation = this.generation;
    const next = this.made[0];
    this.playing = { stop() {} }; // taken: a second call waits for this one
    let buffer;
    try {
      buffer = await next;
    } catch (error) {
      if (generation !== this.generation) return;
      this.made.shift();
      this.playing = null;
      if (error.name !== "AbortError") this.onState("error", error);
      this.pump();
      return;
    }
    if (generation !== this.generation) return;
    this.made.shift();
    if (this.context.state === "suspended") await this.context.resume();
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.context.destination);
    source.onended = () => {
      if (generation !== this.generation) return;
      this.playing = null;
      this.pump();
      if (!this.active && this.finished) this.onState("idle");
    };
    this.playing = source;
    this.onState("speaking");
    source.start();
    this.pump();
  }
}
