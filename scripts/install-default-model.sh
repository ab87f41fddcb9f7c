#!/usr/bin/env bash
# Makes the default chat model available in Hearth's data directory ($HEARTH_HOME/models), pointing at
# the verified copy in the cache rather than duplicating 100 MB.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

home="${HEARTH_HOME:-$HOME/.local/share/hearth}"
mkdir -p "$home/models"
target="$home/models/$SMOLLM2_FILE"
source_file="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE"
if [[ -e "$target" && ! -L "$target" ]]; then
  exit 0 # a real file the user put there is theirs
fi
ln -sfn "$source_file" "$target"
