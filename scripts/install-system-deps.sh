#!/usr/bin/env bash
# Debian packages boardbank's tests and kiosk need. Idempotent; run as root.
#   pcscd, libpcsclite-dev, vsmartcard-vpcd : PC/SC and the virtual reader the tests use (pyscard compiles against libpcsclite-dev)
#   socat                                   : stable pseudo-terminal pairs for serial tests
#   libnfc-bin, libnfc-examples             : libnfc's nfc-list and nfc-poll, run against the PN532 simulator
#   graphviz                                : PNG/SVG diagrams of the banker state machine
#   fonts-ipafont-gothic                    : a CJK font so the Japanese screens have glyphs
#   libgl1 libegl1 libegl-mesa0 libgl1-mesa-dri libmtdev1 : Kivy's GL through Mesa (offscreen too)
set -euo pipefail
PKGS=(pcscd libpcsclite1 libpcsclite-dev pcsc-tools vsmartcard-vpcd socat libnfc-bin libnfc-examples graphviz
      fonts-ipafont-gothic libgl1 libegl1 libegl-mesa0 libgl1-mesa-dri libmtdev1)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
