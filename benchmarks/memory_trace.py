"""Where a process's memory grows: run a command under ``tracemalloc``, every process it forks too.

    python benchmarks/memory_trace.py DIR SECONDS -m gunicorn spyleague.asgi:application ...
    python benchmarks/memory_trace.py --compare DIR

The first form runs the rest of the line as ``python ...`` would (a module with ``-m``, or a
script), with ``tracemalloc`` tracing from the start (5 frames a block); it and every process
forked from it (gunicorn's workers, Celery's pool) write a snapshot every ``SECONDS`` into ``DIR``
(``<pid>-<n>.snapshot``). ``--compare`` prints, for each process, what grew between its second
snapshot (after the warm-up) and its last, by the line that allocated it: the memos that fill
and the leaks that do not stop look alike for a while, but not for the whole of a soak.
``benchmarks/load.py --trace-memory DIR`` runs the web and worker processes this way.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 5


def _dump_every(folder: Path, seconds: float) -> None:
    pid = os.getpid()

    def loop() -> None:
        n = 0
        while True:
            time.sleep(seconds)
            tracemalloc.take_snapshot().dump(str(folder / f"{pid}-{n:03d}.snapshot"))
            n += 1

    threading.Thread(target=loop, name="memory-trace", daemon=True).start()


def run(folder: Path, seconds: float, argv: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(FRAMES)
    os.register_at_fork(after_in_child=lambda: _dump_every(folder, seconds))
    _dump_every(folder, seconds)
    if argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


def compare(folder: Path, top: int = 25) -> None:
    by_pid: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.snapshot")):
        by_pid.setdefault(path.name.split("-")[0], []).append(path)
    for pid, paths in sorted(by_pid.items()):
        if len(paths) < 3:
            continue
        first, last = tracemalloc.Snapshot.load(str(paths[1])), tracemalloc.Snapshot.load(str(paths[-1]))
        ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
        first, last = first.filter_traces(ignore), last.filter_traces(ignore)
        grown = last.compare_to(first, "traceback")
        total = sum(s.size_diff for s in grown)
        print(f"\nprocess {pid}: {total / 1e6:+.1f} MB traced between snapshots 1 and {len(paths) - 1}")
        for stat in grown[:top]:
            if stat.size_diff <= 0:
                break
            print(f"  {stat.size_diff / 1e6:+7.2f} MB {stat.count_diff:+8d} blocks")
            for frame in stat.traceback.format()[-2 * FRAMES :]:
                print(f"      {frame}")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 25)
    else:
        run(Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3:])
