"""Freed memory given back to the system (``spyleague.core.memory``), in a process of its own."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

from spyleague.core import memory

pytestmark = pytest.mark.skipif(memory._malloc_trim() is None, reason="not glibc: nothing to trim")

# A process that frees 200 MB of blocks glibc keeps (each above pymalloc's 512 bytes, one kept
# after them so that the top of the heap cannot shrink by itself), then prints its RSS, then
# runs ``ACTION`` and prints its RSS again once it fell, or after ``DEADLINE`` seconds.
CHILD = """
import sys, time
from spyleague.core import memory

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024

blocks = [bytes(1000) + bytes([i % 256]) for i in range(200_000)]
pin = bytes(1000) + b"pin"
del blocks
before = rss()
ACTION
deadline = time.monotonic() + DEADLINE
while rss() > before - 100 and time.monotonic() < deadline:
    time.sleep(0.01)
print(before, rss(), RESULT)
"""


def run(action: str, result: str, deadline: float) -> tuple[int, int, str]:
    code = CHILD.replace("ACTION", action).replace("RESULT", result).replace("DEADLINE", str(deadline))
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    return int(out[0]), int(out[1]), out[2]


def test_trim_gives_the_freed_blocks_back() -> None:
    before, after, gave = run("gave = memory.trim()", "gave", 0)
    assert gave == "True"
    assert before - after >= 150, (before, after)  # of the 200 MB freed


def test_without_a_trim_they_stay_with_the_process() -> None:
    before, after, _ = run("", "0", 0)
    assert before - after < 50, (before, after)  # the comparison the test above needs


def test_the_thread_trims_by_itself() -> None:
    before, after, started = run("started = memory.start_trimming(0.05)", "started", 30)
    assert started == "True"
    assert before - after >= 150, (before, after)


def test_off_when_the_period_is_zero() -> None:
    assert memory.start_trimming(0) is False


def test_web_and_worker_processes_start_it(monkeypatch: Any) -> None:
    from celery.signals import worker_process_init
    from uvicorn_worker import UvicornWorker

    import spyleague.celery
    from spyleague.server import Worker

    started: list[str] = []
    monkeypatch.setattr(memory, "start_trimming", lambda *a: started.append("trim") or True)
    monkeypatch.setattr(UvicornWorker, "init_process", lambda self: started.append("serve"))
    Worker.init_process(object.__new__(Worker))
    assert started == ["trim", "serve"]  # before the worker starts serving

    started.clear()
    worker_process_init.send(sender=None)
    assert "trim" in started
    assert spyleague.celery._trim_memory in [ref() for _, ref in worker_process_init.receivers]


def test_every_memo_is_counted_against_its_bound() -> None:
    found = memory.memos()
    assert {"rendered rows", "games' states", "figures", "seatings proven"} <= set(found)
    for name, (entries, bound) in found.items():
        assert bound > 0, f"{name} has no bound"
        assert 0 <= entries <= bound, name


def test_the_memo_report_logs_the_memos_beside_the_rss() -> None:
    import logging
    import threading

    reported = threading.Event()

    class Seen(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("Memos of process "):
                reported.set()

    handler = Seen()
    logging.getLogger("spyleague.core.memory").addHandler(handler)
    stop = memory.start_memo_report(0.01)
    try:
        assert stop is not None
        assert reported.wait(10)
    finally:
        if stop is not None:
            stop.set()
        logging.getLogger("spyleague.core.memory").removeHandler(handler)
    assert memory.start_memo_report(0) is None
