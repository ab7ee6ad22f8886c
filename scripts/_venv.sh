# Sourced by scripts/demo and scripts/test (not run on its own): makes .venv with $PYTHON and
# installs agenthooks into it, editable, only when something it depends on changed.
#
#   venv_ready             pip install -e .
#   venv_ready test,lint,docs   pip install -e '.[docs,lint,test]'
#
# .venv is rebuilt when its interpreter is not $PYTHON's (another version, another installation,
# or one removed since): pip would install into the wrong Python, or not start at all, and every
# later run would fail the same way. The install is skipped when the stamp in .venv matches
# pyproject.toml's content, the interpreter's version and installation, this checkout's path and
# the extras asked for; CI starts from a fresh clone, so it always installs.

PYTHON=${PYTHON:-python3}
VENV_STAMP=.venv/.agenthooks-installed

# "3.11 /usr" for an interpreter (its version and base installation); empty if it cannot run.
venv_identity() {
    "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2], sys.base_prefix)' 2>/dev/null || true
}

# What the editable install depends on: a change in any of these means installing again.
venv_install_key() {
    .venv/bin/python -c '
import hashlib, os, sys
with open("pyproject.toml", "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
print(digest, "%d.%d.%d" % sys.version_info[:3], sys.base_prefix, os.getcwd())'
}

venv_build() {
    local wanted have
    if ! command -v "$PYTHON" >/dev/null; then
        echo "error: PYTHON=$PYTHON is not on PATH" >&2
        return 1
    fi
    wanted=$(venv_identity "$PYTHON")
    if [[ -z $wanted ]]; then
        echo "error: PYTHON=$PYTHON does not run" >&2
        return 1
    fi
    if [[ -e .venv ]]; then
        have=$(venv_identity .venv/bin/python)
        [[ $have == "$wanted" ]] && return 0
        if [[ -z $have ]]; then
            echo "== .venv's interpreter does not run any more: rebuilding .venv with $PYTHON"
        else
            echo "== .venv was made by Python $have, PYTHON=$PYTHON is $wanted: rebuilding .venv"
        fi
        rm -rf .venv
    else
        echo "== creating .venv with $PYTHON ($wanted)"
    fi
    "$PYTHON" -m venv .venv
}

# venv_ready [EXTRAS]: .venv exists, runs $PYTHON's interpreter and has agenthooks with EXTRAS
# (comma-separated, such as "test,docs").
venv_ready() {
    local wanted=${1:-} key spec=. stamped_key= stamped_extra= extras
    venv_build
    key=$(venv_install_key)
    if [[ -f $VENV_STAMP ]]; then
        { read -r stamped_key; read -r stamped_extra; } <"$VENV_STAMP" || true
    fi
    # What was installed stays installed: an install with the test extras serves the demo too,
    # and installing the docs extras after them keeps the test extras.
    extras=$(venv_extras_union "$stamped_extra" "$wanted")
    if [[ $stamped_key == "$key" && $extras == "$stamped_extra" ]]; then
        return 0
    fi
    if [[ -n $extras ]]; then
        spec=".[$extras]"
    fi
    echo "== pip install -e '$spec'"
    rm -f "$VENV_STAMP"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e "$spec"
    printf '%s\n%s\n' "$key" "$extras" >"$VENV_STAMP"
}

# "docs,test" for "test" and "docs": the extras of both lists, sorted, each once.
venv_extras_union() {
    printf '%s\n' "$1" "$2" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -
}
