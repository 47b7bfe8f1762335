"""CPU and resident memory of the server processes during a measured window (psutil)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil


def _family(pid: int) -> list[psutil.Process]:
    try:
        proc = psutil.Process(pid)
        return [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _named(prefix: str) -> list[psutil.Process]:
    """Processes whose name starts with `prefix`, their command line read only for those.

    Reading every process's command line at each sample cost the load client, which
    shares the machine's cores with the server it measures, about a tenth of its CPU.
    """
    return [p for p in psutil.process_iter(["name"]) if (p.info.get("name") or "").startswith(prefix)]


def _cmdline(proc: psutil.Process) -> str:
    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return ""


def redis_pids(port: int) -> list[int]:
    """redis-server processes serving `port` (their command line names it)."""
    return [p.pid for p in _named("redis-server") if f":{port}" in _cmdline(p)]


def postgres_backends(database_url: str) -> list[int]:
    """Server processes of the connections to this cluster's own database (their title names it)."""
    name = database_url.rsplit("/", 1)[1]
    out = []
    for p in _named("postgres"):
        cmd = _cmdline(p)
        if cmd.startswith("postgres:") and f" {name} " in f"{cmd} ":
            out.append(p.pid)
    return out


@dataclass
class GroupFigures:
    cpu_percent: float  # of one core, averaged over the window
    rss_mb: float  # the most seen at once (the group's processes added up)
    processes: int  # how many were seen during the window


@dataclass
class ProcWatch:
    """Samples groups of processes from `start` to `stop`, every `interval` seconds.

    CPU is counted per process from its first sighting to its last one, so
    processes that come (a new database connection) or go are counted too. The
    groups are found again every `rescan` seconds, not at every sample: finding
    them walks every process of the machine, and the sampler runs in the load
    client, on the cores the measured server uses too.
    """

    groups: dict[str, Callable[[], list[int]]]
    interval: float = 0.5
    rescan: float = 2.0
    rss_max: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.procs: dict[int, psutil.Process] = {}
        self.t0 = 0.0
        self.found: dict[str, list[int]] = {}
        self.found_at = float("-inf")
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _find(self, force: bool) -> dict[str, list[int]]:
        now = time.monotonic()
        if force or now - self.found_at >= self.rescan:
            for name, find in self.groups.items():
                try:
                    self.found[name] = find()
                except Exception:  # noqa: BLE001 - a group's search is skipped, not the run
                    continue
            self.found_at = now
        return self.found

    def _sample(self, force: bool = False) -> None:
        rss: Counter[str] = Counter()
        for name, pids in self._find(force).items():
            for pid in pids:
                proc = self.procs.get(pid)
                try:
                    if proc is None:
                        proc = self.procs[pid] = psutil.Process(pid)
                    with proc.oneshot():
                        t = proc.cpu_times()
                        rss[name] += proc.memory_info().rss
                except psutil.Error:
                    continue
                self.first.setdefault((name, pid), t.user + t.system)
                self.last[(name, pid)] = t.user + t.system
        for name, value in rss.items():
            self.rss_max[name] = max(self.rss_max[name], value)

    def _run(self) -> None:
        while not self.stopping.wait(self.interval):
            self._sample()

    def start(self) -> None:
        self.t0 = time.perf_counter()
        self._sample(force=True)
        psutil.cpu_percent(None)
        self.thread.start()

    def stop(self) -> tuple[dict[str, GroupFigures], float]:
        """Figures per group, and the whole machine's CPU use (percent of all cores)."""
        self.stopping.set()
        self.thread.join(timeout=5)
        self._sample(force=True)
        wall = time.perf_counter() - self.t0
        machine = psutil.cpu_percent(None)
        out = {}
        for name in self.groups:
            keys = [k for k in self.first if k[0] == name]
            cpu = sum(self.last[k] - self.first[k] for k in keys)
            out[name] = GroupFigures(cpu_percent=100 * cpu / wall, rss_mb=self.rss_max[name] / 2**20, processes=len(keys))
        return out, machine


def family(pid: int) -> Callable[[], list[int]]:
    """A process and its children (found again at every sample)."""
    return lambda: [p.pid for p in _family(pid)]


def alone(pid: int) -> Callable[[], list[int]]:
    return lambda: [pid]


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


class Profiler:
    """py-spy sampling of the web processes for `seconds`, collapsed stacks written to `folder`.

    By default only the thread holding the GIL is sampled: daphne's Python runs on one core's
    worth of GIL, so that is where its CPU goes (threads waiting in libpq are not CPU).
    `idle` samples every thread, waiting ones included (wall time).
    """

    def __init__(self, folder: Path, pids: list[int], seconds: float, rate: int = 200, idle: bool = False) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        local = Path(sys.executable).parent / "py-spy"
        binary = str(local) if local.exists() else "py-spy"
        self.files = [folder / f"daphne-{pid}.txt" for pid in pids]
        self.procs = [
            subprocess.Popen(
                [binary, "record", "--nonblocking", "--format", "raw", "-r", str(rate), "-d", str(int(seconds)),
                 "-p", str(pid), "-o", str(out), *(["--idle"] if idle else ["--gil"])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            for pid, out in zip(pids, self.files, strict=True)
        ]

    def wait(self) -> list[Path]:
        for p in self.procs:
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
        return [f for f in self.files if f.exists()]


def summarise(files: list[Path], top: int = 25, root: str = "") -> str:
    """Inclusive share of samples per function (project frames and a few library ones worth knowing)."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for f in files:
        for line in f.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            frames = stack.split(";")
            total += n
            for fr in set(frames):
                inclusive[fr] += n
            own[frames[-1]] += n
    if not total:
        return "(no samples)"
    lines = [f"{total} samples; inclusive share of the busiest frames:"]
    for fr, n in inclusive.most_common(top * 4):
        if root and root not in fr and "site-packages" in fr and not any(k in fr for k in ("json", "psycopg", "redis", "msgpack")):
            continue
        lines.append(f"  {100 * n / total:5.1f}%  {fr}")
        if len(lines) > top:
            break
    lines.append("own time (leaf frames):")
    for fr, n in own.most_common(12):
        lines.append(f"  {100 * n / total:5.1f}%  {fr}")
    return "\n".join(lines)
