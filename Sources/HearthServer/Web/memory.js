// The memory page: what the assistant remembers (collections and sources with chunk counts), documents
// added by upload, removal, a search that shows its scores, the facts kept about the user, the persona text and
// the user's personas.
import { $, api, askFirst, attempt, el, getJSON, sendJSON, toast } from "/assets/api.js";
import { factsSection } from "/assets/facts.js";
import { personasSection } from "/assets/personas.js";
import { focus } from "/assets/pages.js";
import { state as appState } from "/assets/state.js";

const state = { query: "", mode: "hybrid" };

export async function showMemory() {
  const overview = await getJSON("/api/memory");
  const search = el("input", { type: "search", id: "memory-search", placeholder: "Search the memory", "aria-label": "Search the memory", value: state.query });
  const mode = el("select", { id: "memory-mode", "aria-label": "Search by" },
    ["hybrid", "vector", "keyword"].map((name) => el("option", { value: name, selected: state.mode === name }, name === "hybrid" ? "meaning + words" : name === "vector" ? "meaning" : "words")));
  const run = attempt(async (event) => {
    event?.preventDefault();
    state.query = search.value;
    state.mode = mode.value;
    await refreshResults();
  });
  const form = el("form", { class: "page-bar", id: "memory-search-form", onsubmit: run },
    el("strong", { class: "page-title" }, "Memory"), search, mode,
    el("button", { class: "button", type: "submit" }, "Search"),
    el("button", { class: "button primary", type: "button", id: "memory-upload", onclick: upload }, "Add documents"));
  const status = overview.available
    ? `Searching by meaning with ${overview.embedding_model.replace(/\.gguf$/i, "")} · `
      + overview.collections.map((c) => `${c.name}: ${c.sources} (${c.chunks} chunks)`).join(" · ")
    : `The embedding model ${overview.embedding_model} is not installed; the memory is off.`;
  const persona = el("textarea", { id: "persona", rows: 4, "aria-label": "About me", placeholder: "What should the assistant know about you? (name, family, work, preferences…)" });
  persona.value = overview.persona;
  const personaForm = el("form", { class: "persona", id: "persona-form" },
    el("label", { for: "persona" }, el("strong", {}, "About me"), " — remembered in every chat"), persona,
    el("div", { class: "row" }, el("button", { class: "button", type: "submit" }, "Save")));
  personaForm.addEventListener("submit", attempt(async (event) => {
    event.preventDefault();
    await sendJSON("/api/memory/persona", "PUT", { text: persona.value });
    toast("Saved");
  }));
  $("view-memory").replaceChildren(form, el("p", { class: "muted", id: "memory-status" }, status),
    el("div", { id: "memory-results" }), factsSection(showMemory), personaForm,
    personasSection(showMemory, (persona) => { location.hash = `#/new/${persona.id}`; }),
    el("h3", {}, "Sources"), sourceList(overview.sources));
  // Opened on one source (a citation's link): it is marked and brought into view.
  if (focus.memory) {
    const id = focus.memory;
    const wanted = document.querySelector(`#memory-sources li[data-id="${CSS.escape(id)}"]`);
    delete focus.memory;
    history.replaceState(null, "", "#/memory");
    const cited = appState.citedPassage;
    delete appState.citedPassage;
    if (!wanted) toast("That source is no longer in the memory.");
    if (wanted) {
      wanted.classList.add("focused");
      // Opened from a citation: the words the answer drew on, under their source.
      if (cited?.sourceID === id && cited.passage) {
        wanted.append(el("blockquote", { class: "cited-passage" }, cited.passage));
      }
      wanted.scrollIntoView({ block: "center" });
    }
  }
  if (state.query) await refreshResults();
}

async function refreshResults() {
  const target = $("memory-results");
  if (!state.query.trim()) return target.replaceChildren();
  const { hits } = await getJSON(`/api/memory/search?q=${encodeURIComponent(state.query)}&mode=${state.mode}&k=8`);
  target.replaceChildren(hits.length
    ? el("ol", { class: "memory-hits" }, hits.map((hit) => el("li", { class: "memory-hit" },
      el("div", { class: "meta" },
        el("strong", {}, label(hit.source, hit.chunk.heading)),
        ` · ${hit.source.collection}`,
        hit.similarity !== undefined && hit.similarity !== null ? ` · ${closeness(hit.similarity)}` : "",
        hit.vector_rank ? ` · meaning #${hit.vector_rank}` : "", hit.keyword_rank ? ` · words #${hit.keyword_rank}` : ""),
      el("p", {}, hit.chunk.text))))
    : el("p", { class: "muted" }, "Nothing found."));
}

/// A document by its file name (where it is kept on the server is in the tooltip); anything else by title.
function sourceName(source) {
  return source.collection === "documents" ? source.location.split("/").pop() || source.location : source.title;
}

function label(source, heading) {
  const name = sourceName(source);
  return heading && heading !== source.title ? `${name} › ${heading}` : name;
}

function sourceList(sources) {
  if (!sources.length) return el("p", { class: "muted" }, "Nothing indexed yet. Add documents, write notes, or chat.");
  return el("ul", { class: "memory-sources", id: "memory-sources" }, sources.map((source) => el("li", { "data-id": source.id },
    el("span", { class: "title" }, sourceName(source)),
    el("span", { class: "meta" }, ` ${source.collection} · ${source.chunk_count} chunks `),
    el("button", { class: "button small danger", type: "button", "aria-label": `Forget ${source.title}`, onclick: attempt(async () => {
      if (!(await askFirst(`Forget “${source.title}”? ${source.collection === "notes" ? "(The note stays; it is indexed again when it changes.)" : ""}`, "Forget"))) return;
      await api(`/api/memory/sources?id=${encodeURIComponent(source.id)}`, { method: "DELETE" });
      await showMemory();
    }) }, "Forget"))));
}

function upload() {
  const input = el("input", { type: "file", class: "file-picker", accept: ".txt,.md,.markdown,.html,.htm,.pdf", multiple: true, hidden: true });
  input.addEventListener("change", attempt(async () => {
    let added = 0;
    for (const file of input.files) {
      const answer = await (await api(`/api/memory/documents?name=${encodeURIComponent(file.name)}`, {
        method: "POST", body: file, type: file.type || "application/octet-stream",
      })).json();
      added += answer.added;
    }
    input.remove();
    toast(`${input.files.length} document${input.files.length === 1 ? "" : "s"} indexed (${added} new chunks)`);
    await showMemory();
  }));
  document.body.append(input);
  input.click();
}

/// How close a passage is to the question, in words rather than a cosine.
function closeness(similarity) {
  return similarity >= 0.6 ? "a close match" : similarity >= 0.4 ? "a good match" : "a loose match";
}
