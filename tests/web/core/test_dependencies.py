"""What the site imports comes with its own install, not with the development tools.

``scripts/start`` installs only the site's dependencies; ``scripts/test`` adds the development
tools, and so hides any package the site imports that only a tool happens to bring along (kombu's
Redis transport imports ``packaging``, which pytest brings: a fresh ``scripts/start`` failed on
it while every test passed). So: in a Python of its own, where every package that is neither a
dependency of the site nor of its dependencies cannot be imported (as on a machine that has only
the site's install), import every module of the site as its processes do. Optional imports
(Celery tries greenlet, DRF pygments) fail there quietly, as they would on such a machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[3]

LOAD_THE_SITE = """
import importlib, importlib.abc, json, os, pkgutil, sys

BLOCKED = set(json.loads(os.environ["NOT_INSTALLED"]))


class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not installed by the site)", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
os.environ["DJANGO_SETTINGS_MODULE"] = "spyleague.settings"
os.environ["CELERY_BROKER_URL"] = "redis://127.0.0.1:1/0"  # as deployed: a broker and Redis
os.environ["REDIS_URL"] = "redis://127.0.0.1:1/1"
import django
django.setup()
import spyleague, games, pairing
for package in (spyleague, games, pairing):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if ".migrations." in module.name or module.name.endswith("tests"):
            continue
        importlib.import_module(module.name)
import spyleague.asgi, spyleague.wsgi, spyleague.server  # the web servers' entry points
import kombu.transport.redis, celery.backends.redis  # what the worker and beat load for Redis
import channels.auth, channels.security.websocket, uvicorn.workers  # noqa
print("LOADED", len(sys.modules))
"""


def normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def closure() -> set[str]:
    """The site's distribution and every distribution its dependencies need, with their extras."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(line) for line in project["dependencies"]]
    seen: set[str] = {normal(project["name"])}
    while wanted:
        requirement = wanted.pop()
        name = normal(requirement.name)
        extras = set(requirement.extras)
        key = name + "[" + ",".join(sorted(extras)) + "]"
        if key in seen:
            continue
        seen.update({key, name})
        for line in metadata.requires(requirement.name) or []:
            needed = Requirement(line)
            environments = [{"extra": extra} for extra in extras] or [{"extra": ""}]
            if needed.marker is None or any(needed.marker.evaluate(env) for env in environments):
                wanted.append(needed)
    return {name for name in seen if "[" not in name}


def not_installed_by_the_site() -> set[str]:
    """The top-level modules of the installed distributions the site's install would not bring."""
    allowed = closure()
    return {
        top
        for top, owners in metadata.packages_distributions().items()
        if not any(normal(owner) in allowed for owner in owners)
    }


def test_closure_and_blocking_see_the_tools_apart_from_the_site() -> None:
    blocked = not_installed_by_the_site()
    assert {"pytest", "hypothesis", "playwright"} <= blocked  # development tools
    assert not {"django", "celery", "kombu", "redis", "channels", "uvicorn"} & blocked


def test_the_site_loads_with_only_its_own_dependencies_installed() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", LOAD_THE_SITE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NOT_INSTALLED": json.dumps(sorted(not_installed_by_the_site()))},
    )
    assert loaded.returncode == 0, (
        "the site imports a package only the development tools install (add it to [project] "
        "dependencies in pyproject.toml):\n" + loaded.stderr[-3000:]
    )
    assert "LOADED" in loaded.stdout
