# Shared by scripts/start and scripts/test: find Python, make the virtualenv, install, migrate.
# Idempotent: a second run only checks stamps and returns in a second or two.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mError:\033[0m %s\n' "$*" >&2; exit 1; }

python_ok() { "$1" -c 'import sys, venv, ssl, sqlite3; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; }

find_python() {
  local c
  for c in "${PYTHON:-}" python3.13 python3.12 python3 \
           "$HOME"/.pyenv/versions/3.13*/bin/python3 "$HOME"/.pyenv/versions/3.12*/bin/python3 \
           /usr/local/bin/python3.1[2-9] /usr/bin/python3.1[2-9]; do
    [ -n "$c" ] || continue
    if command -v "$c" >/dev/null 2>&1 && python_ok "$c"; then command -v "$c"; return 0; fi
  done
  # No Python 3.12+ here: try uv, which can fetch one where the network allows.
  if command -v uv >/dev/null 2>&1 || python3 -m pip install --user --quiet uv >/dev/null 2>&1; then
    local uvbin; uvbin="$(command -v uv || echo "$HOME/.local/bin/uv")"
    c="$("$uvbin" python find '>=3.12' 2>/dev/null || { "$uvbin" python install 3.12 >/dev/null 2>&1 && "$uvbin" python find '>=3.12'; } || true)"
    if [ -n "$c" ] && python_ok "$c"; then echo "$c"; return 0; fi
  fi
  return 1
}

ensure_venv() {
  if [ ! -x "$PY" ] || ! python_ok "$PY"; then
    local base
    base="$(find_python)" || die "Spy League needs Python 3.12 or newer (Django 6 does). Install it (or set PYTHON=/path/to/python3.12) and run this again."
    say "Creating the virtual environment with $("$base" --version) in $VENV"
    rm -rf "$VENV"
    "$base" -m venv "$VENV"
  fi
  local stamp="$VENV/.installed" want
  want="$(cat pyproject.toml | "$PY" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')-${1:-base}"
  if [ ! -f "$stamp" ] || ! grep -qx -- "$want" "$stamp"; then
    say "Installing dependencies (${1:-base})"
    "$PY" -m pip install --quiet --disable-pip-version-check --upgrade pip
    local extra=""
    [ "${1:-base}" = "dev" ] && extra="[dev]"
    "$PY" -m pip install --quiet --disable-pip-version-check -e ".$extra"
    echo "$want" > "$stamp"
    # A dev install also satisfies a later base request.
    if [ "${1:-base}" = "dev" ]; then echo "${want%-dev}-base" >> "$stamp"; fi
  fi
  # Compile the hot engine modules with mypyc where a C compiler is available (a no-op otherwise
  # and when nothing changed); the pure-Python sources are the fallback.
  VENV="$VENV" "$ROOT/scripts/build-engines" || echo "The engines run as plain Python."
  return 0
}

migrate() {
  say "Applying database migrations"
  "$PY" manage.py migrate --noinput -v 0
}
