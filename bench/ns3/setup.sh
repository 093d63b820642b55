#!/usr/bin/env bash
# Creates (once) a Python venv outside the repo holding the pinned ns-3 PyPI wheel, and prints
# the venv's python on stdout. Everything else goes to stderr.
#
#   NS3_VENV   venv directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/tcb-lab/ns3-venv)
#   PYTHON     interpreter that creates the venv (default python3)
#
# Idempotent: a venv that already has the pinned versions is reused without touching the network.
# A fresh install needs PyPI (cppyy and CPyCppyy are sdists compiled here with the system C++
# compiler: a few minutes) and exits non-zero with a message when PyPI cannot be reached.
set -euo pipefail

NS3_VERSION=3.44.post0
CPPYY_VERSION=3.5.0 # what `pip install ns3==3.44.post0` resolved to; pinned so results stay comparable
VENV="${NS3_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tcb-lab/ns3-venv}"
PYTHON="${PYTHON:-python3}"
PY="$VENV/bin/python"

log() { echo "bench/ns3/setup.sh: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

installed_ok() {
  [[ -x "$PY" ]] && "$PY" - "$NS3_VERSION" "$CPPYY_VERSION" >/dev/null 2>&1 <<'EOF'
import sys
from importlib.metadata import version
sys.exit(0 if (version("ns3"), version("cppyy")) == (sys.argv[1], sys.argv[2]) else 1)
EOF
}

if installed_ok; then
  echo "$PY"
  exit 0
fi

command -v "$PYTHON" >/dev/null || die "$PYTHON not found (set PYTHON=/path/to/python3)"
if [[ ! -x "$PY" ]]; then
  log "creating venv $VENV"
  mkdir -p "$(dirname "$VENV")"
  "$PYTHON" -m venv "$VENV" >&2 || die "'$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
fi

# Ask the configured index (pip's own settings, so mirrors work) whether the pinned ns3 is there.
if ! index_out="$("$PY" -m pip index versions ns3 --timeout 20 --retries 1 2>&1)"; then
  log "pip says: $(tail -n 3 <<<"$index_out")"
  die "cannot reach PyPI (or the configured pip index) to install ns3==$NS3_VERSION; the ns-3 reference benchmark needs it once, then runs offline"
fi
grep -q "$NS3_VERSION" <<<"$index_out" || die "the package index does not offer ns3==$NS3_VERSION: $(head -n 1 <<<"$index_out")"

log "installing ns3==$NS3_VERSION cppyy==$CPPYY_VERSION into $VENV (compiles cppyy: a few minutes)"
"$PY" -m pip install --timeout 60 "ns3==$NS3_VERSION" "cppyy==$CPPYY_VERSION" >&2 ||
  die "pip install ns3==$NS3_VERSION failed (see above)"

# The first import JIT-compiles the ns-3 headers (cppyy's precompiled header); do it now, and check
# that the bindings work. cppyy prints harmless "Failed to materialize symbols" lines on stderr.
log "checking 'from ns import ns'"
"$PY" -c 'from ns import ns; ns.Simulator.GetEventCount' >/dev/null 2>&1 ||
  die "'from ns import ns' fails in $VENV; remove the venv and retry"
installed_ok || die "installed versions in $VENV differ from ns3==$NS3_VERSION cppyy==$CPPYY_VERSION"

echo "$PY"
