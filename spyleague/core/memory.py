"""Freed memory given back to the system, every ``TRIM_SECONDS``, in each web and worker process.

A long-running web worker's memory (RSS) grew after its warm-up while its live Python objects
did not: under the load benchmark's soak (``benchmarks/load.py --trace-memory``) tracemalloc
found the objects alive in each web worker flat over minutes (the bounded memos full, the rest
a request's passing state), while the RSS of the same workers grew 10 to 20 MB in three minutes.
What grew was glibc's heap: the blocks a request frees (a rendered page, a result set, a pickled
part read from the cache) go back to glibc's free lists, not to the system, and the threads'
arenas keep them at the high-water mark of the requests served at once. ``malloc_trim(0)``
gives back every free page of every arena (not only the top of the heap, since glibc 2.8):
called in running web workers (through gdb) after three minutes of load, it gave back about
10 MB of 153. Here each process calls it every ``TRIM_SECONDS`` from a thread of its own, which
costs a few milliseconds a call and holds no Python lock while it runs (ctypes lets the GIL go).

``SPYLEAGUE_MALLOC_TRIM_SECONDS`` sets the period (30 by default; 0: never). Where the C
library is not glibc (macOS, musl), nothing is started.

The memos a process keeps are each bounded (``memos``: how full each is); with
``SPYLEAGUE_MEMO_REPORT_SECONDS`` set, each process logs them that often beside its RSS, so
that a soak tells a memo filling up to its bound from memory that grows without one.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

TRIM_SECONDS = float(os.environ.get("SPYLEAGUE_MALLOC_TRIM_SECONDS") or 30)
REPORT_SECONDS = float(os.environ.get("SPYLEAGUE_MEMO_REPORT_SECONDS") or 0)

_started_in: int | None = None  # the process (pid) whose thread is running
_lock = threading.Lock()


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def trim() -> bool:
    """Give the free pages of every heap back to the system now; False where there is no
    ``malloc_trim`` (not glibc), or nothing could be given back."""
    call = _malloc_trim()
    return bool(call is not None and call(0))


def start_trimming(seconds: float | None = None) -> bool:
    """Call ``trim`` every ``seconds`` (``TRIM_SECONDS``) from a daemon thread of this process,
    once per process (a forked child starts its own). False when it is off or not glibc."""
    global _started_in
    seconds = TRIM_SECONDS if seconds is None else seconds
    call = _malloc_trim()
    if seconds <= 0 or call is None:
        return False
    with _lock:
        if _started_in == os.getpid():
            return True
        _started_in = os.getpid()

    def loop() -> None:
        while True:
            time.sleep(seconds)
            try:
                call(0)
            except Exception:  # never let it stop the process; log once and stop trimming
                log.exception("malloc_trim failed; freed memory is no longer given back.")
                return

    threading.Thread(target=loop, name="malloc-trim", daemon=True).start()
    return True


def memos() -> dict[str, tuple[int, int]]:
    """Each bounded memo of this process: (entries, its bound)."""
    from games.mister_spy import engine as mister_spy
    from pairing import seating
    from spyleague.play import clocks, realtime, state
    from spyleague.tournaments import event_parts

    from . import cache

    out = {
        "rendered rows": (len(cache._ROWS), cache.ROWS_KEPT),
        "games' states": (len(state._CACHE), state._MAX),
        "races' starts": (len(realtime._RACE_STARTS), realtime.RACE_STARTS_KEPT),
        "turns' deadlines": (len(clocks.TURN_DEADLINES._deadlines), clocks.TURN_DEADLINES.MAX),
        "seatings proven": (len(seating._PROVEN), seating._PROVEN_KEEP),
    }
    for name, memo in (
        ("figures", event_parts._figure),
        ("players' addresses", event_parts._player_url),
        ("Mister Spy's reveals", mister_spy._reveal_sets),
    ):
        found = memo.cache_info()
        out[name] = (found.currsize, found.maxsize or 0)
    return out


def _rss_mb() -> float:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_memo_report(seconds: float | None = None) -> threading.Event | None:
    """Log ``memos`` and the RSS every ``seconds`` (``REPORT_SECONDS``; 0: never) from a daemon
    thread of this process (a forked child starts its own); the event returned stops it."""
    seconds = REPORT_SECONDS if seconds is None else seconds
    if seconds <= 0:
        return None
    pid = os.getpid()
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(seconds):
            try:
                sizes = ", ".join(f"{name} {n}/{bound}" for name, (n, bound) in memos().items())
                log.info("Memos of process %s (RSS %.1f MB): %s", pid, _rss_mb(), sizes)
            except Exception:
                log.exception("The memos could not be counted; no more reports.")
                return

    threading.Thread(target=loop, name="memo-report", daemon=True).start()
    return stop
