#!/usr/bin/env bash
# Debian packages boardbank needs, in two lists. Idempotent; run as root.
#
#   bash scripts/install-system-deps.sh run    what `make run` needs: Kivy's GL through Mesa, and fonts
#   bash scripts/install-system-deps.sh test   that, and what only the tests use (`make test`)
#
# run:
#   libgl1 libegl1 libegl-mesa0 libgl1-mesa-dri libmtdev1 : Kivy's GL through Mesa (offscreen too), multitouch
#   fonts-ipafont-gothic                                   : a CJK font so the Japanese screens (and printed cards) have glyphs
#   fonts-dejavu-core                                      : the Latin and Cyrillic font of `boardbank cards print`
#   xclip                                                  : the cut buffer Kivy's text fields look for on Linux
#   espeak-ng                                              : the voice that says payments, turns and standings
#                                                            (headless --speak-to; en, ru, ro, ja from kana; spoken
#                                                            in-process through its libespeak-ng1, a dependency)
# test:
#   pcscd libpcsclite1 libpcsclite-dev pcsc-tools vsmartcard-vpcd : PC/SC and the virtual reader the tests use
#                                                          (pyscard, in the dev extra, compiles against libpcsclite-dev)
#   socat      : stable pseudo-terminal pairs for serial tests
#   libnfc-bin libnfc-examples : libnfc's nfc-list and nfc-poll, run against the PN532 simulator
#   graphviz   : PNG/SVG diagrams of the banker state machine
#   poppler-utils : pdftoppm and pdftotext, to look at the printed card sets (tests/cli/test_cards_print.py)
#   ShellCheck (package shellcheck) : lints the kiosk installer (tests/cli/test_kiosk.py)
#   sox        : measures the spoken WAV files (tests/e2e/test_story_export.py: not silent)
#   xvfb xauth xdotool : the real window on a virtual X display, clicked as a finger would (tests/ui/test_xwindow.py)
#   strace     : counts the fsync calls of each input (bench/bench_fsync.py, tests/e2e/test_fsync_counts.py)
set -euo pipefail

RUN_PKGS=(libgl1 libegl1 libegl-mesa0 libgl1-mesa-dri libmtdev1 fonts-ipafont-gothic fonts-dejavu-core xclip espeak-ng)
TEST_PKGS=(pcscd libpcsclite1 libpcsclite-dev pcsc-tools vsmartcard-vpcd socat libnfc-bin libnfc-examples graphviz
           shellcheck poppler-utils sox xvfb xauth xdotool strace)

# test, for the phone page (tests/share/):
#   chromium   : headless Chromium that opens the phones' live page (test_share_browser.py); about 360 MB
#                installed with chromium-common, so it is here and never in the run list
#   zbar-tools : zbarimg reads back the QR codes on the unit's screen (test_share_touch.py)
TEST_PKGS+=(chromium zbar-tools)

case "${1:-}" in
  run) PKGS=("${RUN_PKGS[@]}") ;;
  test) PKGS=("${RUN_PKGS[@]}" "${TEST_PKGS[@]}") ;;
  --list-run) printf '%s\n' "${RUN_PKGS[@]}"; exit 0 ;;
  --list-test) printf '%s\n' "${TEST_PKGS[@]}"; exit 0 ;;
  *) echo "install-system-deps.sh: expected 'run' or 'test' (or --list-run, --list-test), got '${1:-}'" >&2; exit 2 ;;
esac

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages ($1): all present"
  exit 0
fi
echo "system packages ($1): installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
