#!/usr/bin/env bash
# Make sure the server can render documents (IC-card bills, reports) in Chinese: Debian's Noto Sans CJK
# (fonts-noto-cjk), the font libs/server/documents embeds in its PDFs. Idempotent and instant when the
# font is there; apt-get only when it is missing, as root (or with passwordless sudo) and unless
# VOLTDEPOT_ALLOW_APT=0. With DOCUMENT_FONT_PATH set, only that file is checked (nothing is installed).
#
#   bash scripts/ensure-fonts.sh        exit 0 when the document font is there afterwards
set -euo pipefail

DEFAULT_FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
FONT=${DOCUMENT_FONT_PATH:-$DEFAULT_FONT}
log() { printf 'ensure-fonts: %s\n' "$*" >&2; }

[[ -f $FONT ]] && exit 0
if [[ $FONT != "$DEFAULT_FONT" ]]; then
  log "DOCUMENT_FONT_PATH=$FONT does not exist: point it at a CJK .ttf/.otf/.ttc font"
  exit 1
fi

hint="sudo apt-get update && sudo apt-get install -y fonts-noto-cjk"
if [[ ${VOLTDEPOT_ALLOW_APT:-1} == 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  log "missing $FONT (package fonts-noto-cjk) and apt-get cannot be used here. Install it with: $hint"
  exit 1
fi
SUDO=()
if [[ $EUID -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    log "missing $FONT; installing needs root. Run: $hint"
    exit 1
  fi
fi

# One install at a time (ensure-browser.sh installs the same package and may run alongside).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$ROOT/.var"
exec 8>"$ROOT/.var/.ensure-browser.lock"
command -v flock >/dev/null 2>&1 && flock -w 600 8
[[ -f $FONT ]] && exit 0

aptlog="$ROOT/.var/apt-fonts.log"
log "installing fonts-noto-cjk with apt-get (log: $aptlog)"
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update >>"$aptlog" 2>&1 ||
  ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends fonts-noto-cjk >>"$aptlog" 2>&1; then
  log "apt-get failed (see $aptlog). Install it by hand: $hint"
  exit 1
fi
[[ -f $FONT ]] || { log "fonts-noto-cjk is installed but $FONT is not there; set DOCUMENT_FONT_PATH"; exit 1; }
log "ready: $FONT"
