#!/usr/bin/env bash
# Make sure the server can render documents (IC-card bills, reports) in Chinese: Debian's Noto Sans CJK
# (fonts-noto-cjk), the font libs/server/documents embeds in its PDFs. Instant when the font is there; the
# install is ensure-browser.sh's (same package, same apt rules: root or passwordless sudo, unless
# VOLTDEPOT_ALLOW_APT=0). With DOCUMENT_FONT_PATH set, only that file is checked (nothing is installed).
#
#   bash scripts/ensure-fonts.sh        exit 0 when the document font is there afterwards
set -euo pipefail

if [[ -n ${DOCUMENT_FONT_PATH:-} ]]; then
  [[ -f $DOCUMENT_FONT_PATH ]] && exit 0
  printf 'ensure-fonts: DOCUMENT_FONT_PATH=%s does not exist: point it at a CJK .ttf/.otf/.ttc font\n' \
    "$DOCUMENT_FONT_PATH" >&2
  exit 1
fi
exec bash "$(dirname "${BASH_SOURCE[0]}")/ensure-browser.sh" --fonts-only
