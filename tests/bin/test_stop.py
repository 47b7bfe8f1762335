"""bin/run's stop (bin/_stop): a clean stop when the processes go, a bounded one when one hangs.

The hang is real: once the Celery worker's main process waited for ever in billiard's
`Pool._help_stuff_finish` after SIGTERM. Here a process that ignores SIGTERM (with a child
of its own) stands in for it, beside one that stops as asked.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.core]

ROOT = Path(__file__).resolve().parents[2]

# Prints the pids (stubborn's child, stubborn, polite), then stops them as bin/run does.
SCRIPT = r"""
set -euo pipefail
. bin/_stop
python3 -c 'import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen(["sleep", "600"], stderr=subprocess.DEVNULL)
print(child.pid, flush=True)
time.sleep(600)' > "$OUT/child" &
stubborn=$!
sleep 600 &
polite=$!
for _ in $(seq 1 100); do [ -s "$OUT/child" ] && break; sleep 0.05; done
echo "$(cat "$OUT/child") $stubborn $polite"
stop_processes $stubborn $polite
echo stopped
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A killed child not yet reaped by its (killed) parent is a zombie: gone for our purpose.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][0] != "Z"


def _stop(tmp_path: Path, grace: int, stubborn: bool) -> tuple[list[int], str, float]:
    script = SCRIPT if stubborn else SCRIPT.replace("signal.signal(signal.SIGTERM, signal.SIG_IGN)", "pass")
    env = {**os.environ, "OUT": str(tmp_path), "STOP_GRACE_SECONDS": str(grace)}
    started = time.monotonic()
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert second == "stopped"
    return [int(p) for p in first.split()], done.stderr, took


def test_a_process_that_ignores_sigterm_is_killed_with_its_child_after_the_grace(tmp_path: Path) -> None:
    pids, stderr, took = _stop(tmp_path, grace=1, stubborn=True)
    child, stubborn, polite = pids
    assert f"Still running after 1 s, killed: {stubborn}" in stderr
    assert str(polite) not in stderr.split("killed:", 1)[1]
    assert not any(_alive(pid) for pid in pids)
    assert took < 30


def test_processes_that_stop_as_asked_are_not_killed(tmp_path: Path) -> None:
    pids, stderr, _ = _stop(tmp_path, grace=20, stubborn=False)
    assert "killed" not in stderr
    assert not any(_alive(pid) for pid in pids[1:])
    # The polite python stub's own child is not ours to kill: it is left to the stub (here it outlives it).
    if _alive(pids[0]):
        os.kill(pids[0], 9)
