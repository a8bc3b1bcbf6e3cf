#!/usr/bin/env bash
# Make sure the browser tests have a browser: Debian's chromium and CJK fonts (so Chinese pages render).
# Idempotent and fast when both are present. Installs with apt-get when running as root (or with
# passwordless sudo) and VOLTDEPOT_ALLOW_APT is not 0; otherwise says what to install and fails.
#
#   bash scripts/ensure-browser.sh        exit 0 when chromium and the fonts are there afterwards
#   bash scripts/ensure-browser.sh --fonts-only
#                                         only the document font (scripts/ensure-fonts.sh): Noto Sans CJK's file
#   CHROMIUM_PATH=/path/to/chromium       use another binary (no install is attempted for it)
set -euo pipefail

CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}
FONTS_ONLY=false
[[ ${1:-} == --fonts-only ]] && FONTS_ONLY=true
# The file libs/server/documents embeds in its PDFs (fonts-noto-cjk).
NOTO_CJK=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if $FONTS_ONLY; then PACKAGES=(fonts-noto-cjk); else PACKAGES=(chromium fonts-noto-cjk); fi

log() { printf 'ensure-browser: %s\n' "$*" >&2; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
have_cjk_fonts() {
  if $FONTS_ONLY; then
    [[ -f $NOTO_CJK ]]
  elif command -v fc-list >/dev/null 2>&1; then
    fc-list ':lang=zh' family 2>/dev/null | grep -q .
  else
    installed fonts-noto-cjk
  fi
}

missing=()
$FONTS_ONLY || [[ -x $CHROMIUM_PATH ]] || missing+=(chromium)
have_cjk_fonts || missing+=(fonts-noto-cjk)
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

hint="sudo apt-get update && sudo apt-get install -y ${PACKAGES[*]}"
if [[ ${VOLTDEPOT_ALLOW_APT:-1} == 0 ]]; then
  log "missing ${missing[*]} and apt is not allowed (VOLTDEPOT_ALLOW_APT=0). Install them with: $hint"
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  log "missing ${missing[*]} and this machine has no apt-get. Install Chromium and CJK fonts, then set CHROMIUM_PATH."
  exit 1
fi
SUDO=()
if [[ $EUID -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    log "missing ${missing[*]}; installing needs root. Run: $hint"
    exit 1
  fi
fi

# One install at a time when test jobs run in parallel.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$ROOT/.var"
exec 8>"$ROOT/.var/.ensure-browser.lock"
command -v flock >/dev/null 2>&1 && flock -w 600 8

aptlog="$ROOT/.var/apt-browser.log"
log "installing ${missing[*]} with apt-get (log: $aptlog)"
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update >>"$aptlog" 2>&1 ||
  ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}" >>"$aptlog" 2>&1; then
  log "apt-get failed (see $aptlog). Install them by hand: $hint"
  exit 1
fi
if $FONTS_ONLY; then
  have_cjk_fonts || { log "fonts-noto-cjk is installed but $NOTO_CJK is not there; set DOCUMENT_FONT_PATH"; exit 1; }
  log "ready: $NOTO_CJK"
  exit 0
fi
if [[ ! -x $CHROMIUM_PATH ]]; then
  log "chromium was installed but $CHROMIUM_PATH does not exist; set CHROMIUM_PATH"
  exit 1
fi
log "ready: $("$CHROMIUM_PATH" --version 2>/dev/null | head -n1)"
