#!/usr/bin/env bash
# Makes the default chat model, the memory's embedding model and the speech models available in Hearth's data directory
# ($HEARTH_HOME/models), pointing at the verified copies in the cache rather than duplicating them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

home="${HEARTH_HOME:-$HOME/.local/share/hearth}"
mkdir -p "$home/models"
link() { # file name in the cache
  local target="$home/models/$1"
  if [[ -e "$target" && ! -L "$target" ]]; then
    return # a real file the user put there is theirs
  fi
  ln -sfn "$HEARTH_MODELS_CACHE/$1" "$target"
}
link "$SMOLLM2_FILE"
link "$MINILM_FILE"
link "$WHISPER_MODEL_FILE"
link "$PIPER_VOICE_FILE"
link "$PIPER_TOKENS_FILE"
link "$VAD_MODEL_FILE"
