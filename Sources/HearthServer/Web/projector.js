// The vision projector on the Models page: which file images are looked at with, or OCR when none.
import { $, api, el, getJSON, sendJSON, showError } from "/assets/api.js";

function fill(view) {
  const form = $("projector-form");
  form.elements.path.value = view.path ?? "";
  form.elements.path.readOnly = view.source === "environment";
  $("projector-candidates").replaceChildren(...view.candidates.map((path) => el("option", { value: path })));
  $("projector-clear").hidden = view.source !== "profile";
  $("projector-status").textContent = view.source === "environment" ? "Set by HEARTH_MMPROJ when the server started."
    : view.path ? "Images are looked at by the model." : "Images are read by OCR"
      + (view.candidates.length ? "." : ": no projector file is in the models folder.");
}

export async function loadProjector() {
  try {
    fill(await getJSON("/api/models/projector"));
  } catch (error) {
    showError(error.message);
  }
}

export function wireProjector() {
  const form = $("projector-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      fill(await sendJSON("/api/models/projector", "PUT", { path: form.elements.path.value.trim() }));
      $("projector-status").textContent = "Saved: the next image is looked at with this projector.";
    } catch (error) {
      $("projector-status").textContent = "";
      showError(error.message);
    }
  });
  $("projector-clear").addEventListener("click", async () => {
    try {
      fill(await (await api("/api/models/projector", { method: "DELETE" })).json());
    } catch (error) {
      showError(error.message);
    }
  });
}
