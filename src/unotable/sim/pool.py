"""Running a simulation's chunks: in this process, in a pool of processes, or on Ray."""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from unotable.errors import ConfigError
from unotable.sim.config import BACKENDS, SimConfig
from unotable.sim.runs import Record, run_chunk


def chunks(units: int, workers: int) -> list[tuple[int, int]]:
    """Contiguous ranges of work: a few per worker (for balance and progress), at most 200 each."""
    size = max(1, min(200, math.ceil(units / max(1, workers * 8))))
    return [(a, min(units, a + size)) for a in range(0, units, size)]


def simulate(
    cfg: SimConfig,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Record]:
    """Every record of the simulation, in hand (game) order.

    :param workers: processes (``None``: one per core; 1: in this process).
    :param backend: ``local`` (processes on this machine) or ``ray`` (a Ray cluster: local by
        default, or the one at ``address``).
    :param progress: called with the number of hands (games) just finished.
    """
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    w = workers if workers is not None else (os.cpu_count() or 1)
    if w < 1:
        raise ConfigError(f"workers must be at least 1, not {w}")
    parts = chunks(cfg.units, w)
    note = progress or (lambda _: None)
    if backend == "ray":
        return _run_ray(cfg, parts, workers, address, note)
    if w == 1 or len(parts) == 1:
        out: list[Record] = []
        for a, b in parts:
            out += run_chunk(cfg, a, b)
            note(b - a)
        return out
    results: list[list[Record] | None] = [None] * len(parts)
    # fork where it is the platform's safe default (the workers start at once and need no
    # `if __name__ == "__main__"` guard in the caller); the progress bar runs no thread.
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    with ProcessPoolExecutor(max_workers=min(w, len(parts)), mp_context=context) as pool:
        futures = {pool.submit(run_chunk, cfg, a, b): i for i, (a, b) in enumerate(parts)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            note(parts[i][1] - parts[i][0])
    return [r for chunk in results if chunk is not None for r in chunk]


def _run_ray(
    cfg: SimConfig,
    parts: list[tuple[int, int]],
    workers: int | None,
    address: str | None,
    note: Callable[[int], None],
) -> list[Record]:
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'unotable[ray]'") from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        elif workers is not None:
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
    task = ray.remote(run_chunk)
    refs = [task.remote(cfg, a, b) for a, b in parts]
    where = {ref: i for i, ref in enumerate(refs)}
    results: list[list[Record] | None] = [None] * len(parts)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            i = where[ref]
            results[i] = ray.get(ref)
            note(parts[i][1] - parts[i][0])
    return [r for chunk in results if chunk is not None for r in chunk]
