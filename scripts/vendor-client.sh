#!/usr/bin/env bash
# Installs the vendor's official client (PyPI `vastai`, pinned) into .venv-vastai/, the second
# witness of test/conformance/vendor-client.test.ts. Idempotent: does nothing when the pinned
# version is already there. Needs Python 3.10 or newer.
set -euo pipefail
VASTAI_VERSION="1.9.1"
case "$0" in */*) cd "${0%/*}/.." ;; *) cd .. ;; esac
VENV=".venv-vastai"

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
if [ -z "$PY" ] || ! command -v "$PY" >/dev/null 2>&1; then
  echo "vendor-client: Python 3.10 or newer is required (${PY:-python3} not found; set PYTHON=/path/to/python3)" >&2
  exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "vendor-client: Python 3.10 or newer is required ($PY is $("$PY" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo unknown))" >&2
  exit 1
fi

if ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "vendor-client: $PY cannot create virtual environments (install the venv module, e.g. apt-get install python3-venv)" >&2
  exit 1
fi

installed() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys
from importlib.metadata import version
sys.exit(0 if version("vastai") == sys.argv[1] else 1)' "$VASTAI_VERSION" 2>/dev/null
}

if installed; then
  echo "vendor-client: vastai $VASTAI_VERSION already in $VENV"
  exit 0
fi

echo "vendor-client: creating $VENV with $("$PY" -c 'import platform; print(platform.python_version())')"
"$PY" -m venv --clear "$VENV"
echo "vendor-client: installing vastai==$VASTAI_VERSION"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "vastai==$VASTAI_VERSION"
installed || { echo "vendor-client: vastai $VASTAI_VERSION did not install into $VENV" >&2; exit 1; }
echo "vendor-client: vastai $VASTAI_VERSION ready in $VENV ($VENV/bin/vastai)"
