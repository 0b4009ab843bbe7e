"""Installing the project: an explicit package list that matches the tree, package data
included, and a wheel and an editable build without a single setuptools warning."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
TOP_LEVEL = ("shared", "services", "clients")
# The build runs with warnings as errors: any setuptools warning (deprecations, the
# "Editable installation" notice, package-discovery complaints) fails it.
BUILD = """
import sys
from setuptools import build_meta as backend
out = sys.argv[1]
print(backend.build_wheel(out))
print(backend.build_editable(out))
"""


def tree_packages() -> set[str]:
    """Every package (a folder with ``__init__.py``) under the top-level names, and every
    folder of message catalogs (gettext's layout, ``locales/<lang>/LC_MESSAGES``: data
    that setuptools ships as the package data of a package of its own)."""
    code = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP_LEVEL
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    catalogs = {
        ".".join(found.parent.relative_to(ROOT).parts)
        for top in TOP_LEVEL
        for pattern in ("*.po", "*.pot")
        for found in (ROOT / top).rglob(pattern)
    }
    return code | catalogs


def test_package_list_matches_the_tree() -> None:
    assert set(PYPROJECT["tool"]["setuptools"]["packages"]) == tree_packages()
    assert "packages" not in PYPROJECT["tool"]["setuptools"].get("find", {})


def test_builds_without_warnings_and_ships_package_data(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for top in TOP_LEVEL:
        shutil.copytree(ROOT / top, src / top, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "dist"
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", BUILD, str(out)],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    for marker in ("Warning", "warning:", "!!"):
        assert marker not in output, output

    wheel, editable = sorted(out.glob("*.whl"), key=lambda p: "editable" in p.name)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "shared/store/store.lua",
        "shared/store/schedule.lua",
        "shared/store/history.lua",
        "shared/games/history-1.dict",
        "shared/store/document-1.dict",
    } <= names
    for package in tree_packages():
        folder = package.replace(".", "/")
        assert any(n.startswith(f"{folder}/") for n in names), package
        if (ROOT / folder / "__init__.py").exists():
            assert f"{folder}/__init__.py" in names, package
    for language in ("de", "ja"):  # the API's message catalogs (shared/i18n)
        assert f"shared/i18n/locales/{language}/LC_MESSAGES/messages.po" in names
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == set(TOP_LEVEL)  # no tests/, bench/ or scripts/ installed
    top_level_txt = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    assert set(zipfile.ZipFile(wheel).read(top_level_txt).decode().split()) == set(TOP_LEVEL)
    assert any(n.endswith(".pth") for n in zipfile.ZipFile(editable).namelist())
