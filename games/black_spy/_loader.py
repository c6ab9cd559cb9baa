"""Use the compiled engine modules only when they were built from the sources as they are.

``scripts/build-engines`` compiles ``COMPILED`` with mypyc into one group: a shared
library ``_native__mypyc.<ext>`` and one ``<module>.<ext>`` per module, next to the
sources, plus ``_native.stamp`` holding the sha256 of the sources they were built from.
Python's import system prefers those files to the ``.py`` sources. This module, run
first by the package, makes that safe: when the compiled files are stale (a source was
edited since the build) or ``SPYLEAGUE_PURE_PYTHON`` is set to anything but ``""`` or
``0``, the modules are imported from their sources instead, all of them, since compiled
modules of one group call each other directly and cannot be mixed with plain ones.

This module itself is never compiled.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

COMPILED = ("cards", "scoring", "engine")  # in import order: each imports only earlier ones
GROUP = "_native"
PURE_PYTHON_ENV = "SPYLEAGUE_PURE_PYTHON"


def sources_hash(folder: Path) -> str:
    """The sha256 of the compiled modules' sources, concatenated in ``COMPILED`` order."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update((folder / f"{name}.py").read_bytes())
    return digest.hexdigest()


def compiled_is_current(folder: Path) -> bool | None:
    """None when there is no compiled build; else whether it matches the sources."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = [folder / f"{name}{suffix}" for name in (*COMPILED, f"{GROUP}__mypyc")]
    if not any(path.exists() for path in built):
        return None
    if not all(path.exists() for path in built):
        return False
    try:
        stamp = (folder / f"{GROUP}.stamp").read_text().splitlines()
    except OSError:
        return False
    return f"sources={sources_hash(folder)}" in stamp


def load(package: ModuleType) -> bool:
    """Import ``COMPILED`` for ``package``; True if the compiled modules are the ones used."""
    folder = Path(package.__file__ or "").parent
    pure = os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")
    current = compiled_is_current(folder)
    if current is None:
        return False  # nothing compiled: the ordinary imports find the sources
    if current and not pure:
        return True  # the ordinary imports find the compiled modules first
    for name in COMPILED:
        full = f"{package.__name__}.{name}"
        spec = importlib.util.spec_from_file_location(full, folder / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)
        setattr(package, name, module)
    return False
