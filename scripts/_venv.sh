# Sourced by the scripts: create .venv if needed and install the project with its test extras.
# Needs only Python 3.11+ (on Debian: apt-get install python3 python3-venv).
py=${PYTHON:-python3}
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "error: Python 3.11 or newer is needed as '$py' (set PYTHON=... to choose one)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv || {
        echo "error: could not create a virtual environment; on Debian: apt-get install python3-venv" >&2
        exit 1
    }
fi
PY=.venv/bin/python
stamp=.venv/.installed-$(cat pyproject.toml | "$PY" -c 'import hashlib,sys; print(hashlib.sha1(sys.stdin.buffer.read()).hexdigest()[:12])')
if [ ! -f "$stamp" ]; then
    echo "Installing the project and its test dependencies into .venv (log: .venv/install.log)..."
    if ! { "$PY" -m pip install --upgrade pip && "$PY" -m pip install -e '.[test]'; } >.venv/install.log 2>&1; then
        tail -n 30 .venv/install.log >&2
        echo "error: installing dependencies failed (full log: .venv/install.log)" >&2
        exit 1
    fi
    rm -f .venv/.installed-*
    touch "$stamp"
fi
