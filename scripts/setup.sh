#!/usr/bin/env bash
# Installs what fencer needs to build: Go (expected on the machine) and Z3's
# C library and headers (Debian's libz3-dev, 4.8.12 on bookworm).
set -euo pipefail
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH=$PATH:/usr/local/go/bin; else
    echo "setup: Go is not installed (need Go 1.23 or later)" >&2; exit 1
  fi
fi
# xmllint (libxml2-utils) validates check's JUnit XML against docs/junit.xsd
# in the tests.
if [ ! -f /usr/include/z3.h ] || ! command -v xmllint >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libz3-dev libxml2-utils
fi
