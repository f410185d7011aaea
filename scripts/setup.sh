#!/usr/bin/env bash
# Installs what fencer needs to build and test: Go (expected on the machine),
# Z3's C library and headers (Debian's libz3-dev, 4.8.12 on bookworm) and
# gcc (the C reader preprocesses with it; patched C and hardware harnesses
# are compiled with it).
set -euo pipefail
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH=$PATH:/usr/local/go/bin; else
    echo "setup: Go is not installed (need Go 1.25 or later)" >&2; exit 1
  fi
fi
# xmllint (libxml2-utils) validates check's JUnit XML against docs/junit.xsd
# in the tests.
if [ ! -f /usr/include/z3.h ] || ! command -v xmllint >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libz3-dev libxml2-utils gcc
fi
