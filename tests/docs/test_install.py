"""Installation as docs/install.md tells it: the package builds as a wheel and an sdist that
pass `twine check`, the wheel (what `pipx install .`, `uv tool install .` and `pip install .`
install) gives a working `agenthooks` command in a virtual environment of its own, and click's
shell completion prints a script for each shell the page names."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from tests.docs.pages import REPO


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from this checkout, the wheel from the sdist (as
    `python -m build` does by default), with the build backend of the docs extras: no
    registry needed. Under scripts/test-pythons: the ones it built, whose wheel the tests run."""
    given = os.environ.get("AGENTHOOKS_TEST_DIST")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                           str(REPO)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_wheel_and_the_sdist_pass_twine_check(dist: Path) -> None:
    built = sorted(path.name for path in dist.iterdir())
    assert sorted(name.rsplit(".", 1)[-1] for name in built) == ["gz", "whl"], built
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                           *map(str, sorted(dist.iterdir()))],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# The Apache License 2.0 as the Apache Software Foundation publishes it (LICENSE-2.0.txt).
APACHE_2_0_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"


def test_the_wheel_and_the_sdist_carry_the_license(dist: Path) -> None:
    """pyproject.toml says Apache-2.0: the license's own text goes with every copy."""
    license_text = (REPO / "LICENSE").read_bytes()
    assert hashlib.sha256(license_text).hexdigest() == APACHE_2_0_SHA256
    [wheel] = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        [info] = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(info) == license_text
        [metadata] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        fields = archive.read(metadata).decode().split("\n\n", 1)[0].splitlines()
    assert "License-Expression: Apache-2.0" in fields and "License-File: LICENSE" in fields
    [sdist] = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read() == license_text


@pytest.mark.program
def test_the_installed_wheel_runs_on_its_own(dist: Path, tmp_path: Path) -> None:
    """A virtual environment of its own, as pipx makes: the command is its entry point and
    the package its own copy (schemas included), not this checkout's."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    wheel = next(dist.glob("*.whl"))
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--quiet", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # The dependencies come from this test's environment, after the venv's own packages (the
    # registry is not needed): a .pth file adds the folder they are in.
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig."
                                "get_paths()['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    shutil.copytree(REPO / "sample_hooks", tmp_path / "sample_hooks", symlinks=True)
    env = {**os.environ, "HOME": str(tmp_path),
           "PATH": f"{env_dir / 'bin'}{os.pathsep}/usr/bin:/bin"}
    env.pop("PYTHONPATH", None)

    def agenthooks(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(env_dir / "bin" / "agenthooks"), *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=60, check=False)

    assert agenthooks("--version").returncode == 0
    where = subprocess.run([str(python), "-c", "import agenthooks; print(agenthooks.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(env_dir)), where.stdout
    assert '"$schema"' in agenthooks("schema").stdout
    checked = agenthooks("validate", "sample_hooks")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.program
@pytest.mark.parametrize(("shell", "start"), [
    ("bash", "_agenthooks_completion() {"),
    ("zsh", "#compdef agenthooks"),
    ("fish", "function _agenthooks_completion"),
])
def test_completion_prints_each_shells_script(shell: str, start: str) -> None:
    env = {**os.environ, "_AGENTHOOKS_COMPLETE": f"{shell}_source"}
    done = subprocess.run([str(Path(sys.executable).parent / "agenthooks")], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert start in done.stdout
