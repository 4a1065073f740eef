"""Attacks on tools/sandbox.py, the sandbox the grader runs every student notebook in.

Each test runs this venv's python inside the sandbox with a small hostile script and checks
that the attack failed *and* that nothing outside changed: reads of the host (files, /proc,
the grader's environment), privileges, writes outside the work folder (and a setuid file or a
symlink left in it), the network, a process left behind, a fork bomb, a memory hog (one
process, and several against the cgroup), an endless loop, a huge file, many files and a full
/tmp and /dev/shm against the run's bounded space, a neighbour's work folder, a neighbour that
starts many sessions to take more CPU; that Java (PySpark) still starts inside; that the Python
environment is a parameter; and the user-namespace path, run as ``nobody``. Scripts that could hurt the host if they ever ran outside begin with
``guard(sentinel)``, which exits unless the script sees the sandbox's own view.

Runs use slot 200 and up (uid 61200...), away from a grader that may run meanwhile.
No sandbox here (``kind()`` is None) skips the module, except under CI=true, where it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("sandbox", ROOT / "tools" / "sandbox.py")
sandbox = importlib.util.module_from_spec(spec)
sys.modules["sandbox"] = sandbox
spec.loader.exec_module(sandbox)

AS_ROOT = os.geteuid() == 0
WORK = "/home/student/work"
SLOT = 200        # far from a grader's slots 0, 1, ... that may run on this host meanwhile


@pytest.fixture(scope="module", autouse=True)
def bubblewrap():
    """Every test needs a working sandbox; CI must have one."""
    if sandbox.kind() == "bubblewrap":
        return
    if os.environ.get("CI") == "true":
        pytest.fail("no working bubblewrap sandbox under CI=true (install bubblewrap)")
    pytest.skip("bubblewrap is missing or cannot create namespaces here")


@pytest.fixture(scope="module")
def sentinel():
    """A host file outside every bind: the sandbox must never see it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"sentinel-{uuid.uuid4().hex}"
        path.write_text("the answer key")
        yield path


def guard(sentinel: Path) -> str:
    """Python lines that stop a script unless it runs in the sandbox's view."""
    return (f"import os, sys\nif os.path.exists({str(sentinel)!r}) or os.getcwd() != {WORK!r}:\n"
            "    sys.exit(99)\n")


def python(script: str, workdir: Path, **kwargs):
    kwargs.setdefault("slot", SLOT)
    return sandbox.run([sys.executable, "-c", textwrap.dedent(script)], workdir=workdir, **kwargs)


def sandbox_uid(slot: int = SLOT) -> int | None:
    return sandbox.FIRST_UID + slot if AS_ROOT else None


def host_processes(uid: int | None = None, marker: str | None = None) -> list[int]:
    """Host pids of processes run by ``uid`` or whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text() if entry.name.isdigit() else ""
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace") if status else ""
        except OSError:    # ended while we looked
            continue
        uids = next((line.split()[1:] for line in status.splitlines() if line.startswith("Uid:")), [])
        if (uid is not None and str(uid) in uids) or (marker and marker in cmdline):
            found.append(int(entry.name))
    return found


def paths_to_python() -> set[str]:
    """Every folder on the way to the bound interpreters: all the sandbox may see of /work,
    /root or the repository (which holds the venv on CI)."""
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(WORK)}
    return {str(p) for path in paths for p in [path, *path.parents]}


def test_reads_of_the_host_find_nothing(tmp_path, sentinel, monkeypatch):
    monkeypatch.setenv("EVALKIT_GRADER_SECRET", "hunter2")
    interesting = ["/work", str(ROOT), "/root", str(sentinel.parent), "/home", "/tmp", "/",
                   "/.sandbox"]
    script = f"""
        import json, os
        seen = {{}}
        for folder in {interesting!r}:
            try:
                seen[folder] = sorted(os.listdir(folder))
            except OSError as error:
                seen[folder] = type(error).__name__
        secrets = [{str(sentinel)!r}, {str(ROOT / "tools" / "sandbox.py")!r},
                   {str(ROOT / "evalkit" / "course")!r}, "/etc/shadow", "/root/.bash_history"]
        readable = []
        for path in secrets:
            try:
                open(path, "rb").read(1)
                readable.append(path)
            except OSError:
                pass
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        cmdlines = [open(f"/proc/{{p}}/cmdline", "rb").read().decode() for p in pids]
        environs = [str(os.environ)]
        for pid in pids:
            try:
                environs.append(open(f"/proc/{{pid}}/environ", "rb").read().decode())
            except OSError:
                pass
        readable += ["environ"] if any("hunter2" in e for e in environs) else []
        print(json.dumps(dict(seen=seen, readable=readable, pids=pids, cmdlines=cmdlines,
                              init=open("/proc/1/cmdline", "rb").read().decode())))
    """
    outcome = python(script, tmp_path)
    assert outcome.returncode == 0, outcome.stderr
    found = json.loads(outcome.stdout)
    allowed = paths_to_python()
    for folder, names in found["seen"].items():
        if folder in ("/", "/tmp", "/.sandbox"):
            continue
        # each listing holds only the next step towards the interpreters, or nothing at all
        leaks = [n for n in names if str(Path(folder) / n) not in allowed] if isinstance(names, list) else []
        assert leaks == [], (folder, names)
    assert found["seen"][str(sentinel.parent)] == "FileNotFoundError"
    # a private /tmp: empty, but for the way to an interpreter that lives under the host's /tmp
    assert set(found["seen"]["/tmp"]) <= {Path(p).parts[2] for p in allowed if p.startswith("/tmp/")}
    assert set(found["seen"]["/"]) <= {"bin", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32",
                                       "proc", "root", "sbin", "tmp", "usr", "work", ".sandbox",
                                       *(Path(p).parts[1] for p in allowed if p != "/")}
    # the sandbox's own first step (this module) and the empty mount point of its space
    assert found["seen"]["/.sandbox"] == ["sandbox.py", "space"]
    assert found["readable"] == []
    # its own pid namespace: bwrap's pid 1 and the script, none of the host's processes
    assert len(found["pids"]) <= 3, found["pids"]
    assert Path(f"/proc/{os.getpid()}/cmdline").read_bytes().decode() not in found["cmdlines"]
    assert found["init"] != Path("/proc/1/cmdline").read_bytes().decode()
    assert "bwrap" in found["init"]


def test_no_privileges(tmp_path):
    script = """
        import os
        results = []
        for attempt in (lambda: os.setuid(0), lambda: os.setgid(0), lambda: os.chroot("/tmp"),
                        lambda: os.kill(1, 9)):
            try:
                attempt()
                results.append("done")
            except OSError as error:
                results.append(type(error).__name__)
        status = open("/proc/self/status").read()
        caps = [l for l in status.splitlines() if l.startswith(("CapEff", "CapPrm", "CapBnd", "CapAmb"))]
        print(results, os.getuid(), os.getgid(), os.getgroups(), caps,
              [l for l in status.splitlines() if l.startswith("NoNewPrivs")])
    """
    outcome = python(script, tmp_path)
    assert outcome.returncode == 0, outcome.stderr
    assert "'done'" not in outcome.stdout
    assert "NoNewPrivs:\\t1" in outcome.stdout
    if AS_ROOT:
        assert f"{sandbox_uid()} {sandbox_uid()} []" in outcome.stdout
        assert outcome.stdout.count("0000000000000000") == 4     # no capability at all


def test_environment_is_only_the_sandboxs(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALKIT_GRADER_SECRET", "hunter2")
    script = """
        import json, os
        for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "IPYTHONDIR", "TMPDIR"):
            os.makedirs(os.path.join(os.environ[name], "probe"))   # writable, so no tool complains
        print(json.dumps(dict(os.environ)))
    """
    outcome = python(script, tmp_path, env={"MPLBACKEND": "Agg", "LANG": "C"})
    assert outcome.returncode == 0, outcome.stderr
    seen = json.loads(outcome.stdout)
    assert seen.pop("PATH").startswith(f"{sys.prefix}/bin:")
    seen.pop("LC_CTYPE", None)          # Python's own, under LANG=C (PEP 538)
    assert seen == {"HOME": "/home/student", "TMPDIR": "/tmp", "LANG": "C", "MPLBACKEND": "Agg",
                    "XDG_CACHE_HOME": "/tmp/.cache", "XDG_CONFIG_HOME": "/tmp/.config",
                    "XDG_DATA_HOME": "/tmp/.local/share", "IPYTHONDIR": "/tmp/.ipython", "PWD": WORK}


def test_only_the_workdirs_files_are_writable(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "key.txt").write_text("42")
    workdir = tmp_path / "work"
    (workdir / "answers").mkdir(parents=True)
    (workdir / "answers" / "answer.txt").write_text("")
    targets = ["/opt/data/key.txt", "/opt/data/new.txt", f"{sys.prefix}/evil.pth", "/usr/evil",
               "/etc/evil", "/evil", "/home/student/evil", "/proc/evil", "/dev/evil", "/root/evil",
               "/.sandbox/evil", "/.sandbox/space/evil", "/.sandbox/sandbox.py"]
    script = f"""
        import os
        written = []
        for path in {targets!r}:
            try:
                with open(path, "w") as file:
                    file.write("owned")
                written.append(path)
            except OSError:
                pass
        open("{WORK}/answers/answer.txt", "w").write("mine")
        open("{WORK}/answers/new.txt", "w").write("in the space")
        os.mkdir("{WORK}/made")
        open("/tmp/scratch", "w").write("scratch")
        open("/dev/shm/scratch", "w").write("scratch")
        refused = []
        for attempt in (lambda: os.unlink("answers/answer.txt"),
                        lambda: os.rename("answers/answer.txt", "moved.txt"),
                        lambda: os.link("answers/answer.txt", "answers/hard.txt"),
                        lambda: os.rmdir("answers")):
            try:
                attempt()
                refused.append("done")
            except OSError as error:
                refused.append(type(error).__name__)
        print(written, refused, sorted(os.listdir("answers")))
    """
    before = {p: p.stat().st_mtime_ns for p in (data, data / "key.txt")}
    outcome = python(script, workdir, binds=[(data, "/opt/data")])
    assert outcome.returncode == 0, outcome.stderr
    written, refused, listed = outcome.stdout.strip().split("] ")
    assert written == "[" and "done" not in refused, outcome.stdout
    assert listed == "['answer.txt', 'new.txt']"
    assert (workdir / "answers" / "answer.txt").read_text() == "mine"   # landed on the host
    # and nothing else did: the new file and folder were in the sandbox's space, now gone
    left = sorted(str(p.relative_to(workdir)) for p in workdir.rglob("*"))
    assert left == ["answers", "answers/answer.txt"]
    assert sorted(p.name for p in data.iterdir()) == ["key.txt"]
    assert (data / "key.txt").read_text() == "42"
    assert before == {p: p.stat().st_mtime_ns for p in before}
    assert not Path(sys.prefix, "evil.pth").exists() and not Path("/usr/evil").exists()
    assert not Path("/etc/evil").exists() and not Path("/evil").exists()


@pytest.mark.skipif(not AS_ROOT, reason="the workdir is chowned only when running as root")
def test_workdir_is_given_back_and_symlinks_not_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("host file")
    os.chown(victim, 12345, 12345)
    workdir = tmp_path / "work"
    (workdir / "sub").mkdir(parents=True)
    (workdir / "sub" / "given.txt").write_text("notebook")
    (workdir / "out.txt").write_text("")
    os.symlink(victim, workdir / "link")              # a symlink in the workdir is not bound
    script = f"""
        import os
        os.symlink({str(victim)!r}, "made-link")
        open("out.txt", "w").write("out")
        os.chmod("out.txt", 0o6755)                         # a setuid program, were it root's
        print(os.stat("sub/given.txt").st_uid, os.path.lexists("link"))
    """
    outcome = python(script, workdir)
    assert outcome.returncode == 0, outcome.stderr
    assert outcome.stdout.strip() == f"{sandbox_uid()} False"      # the student could write it
    owner = (os.getuid(), os.getgid())
    for path in [workdir, *workdir.rglob("*")]:
        assert (path.lstat().st_uid, path.lstat().st_gid) == owner, path
    assert (victim.stat().st_uid, victim.stat().st_gid) == (12345, 12345)
    assert oct((workdir / "out.txt").stat().st_mode & 0o7777) == oct(0o755)
    assert not (workdir / "made-link").exists()


def test_no_network(tmp_path):
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    script = f"""
        import socket
        results = {{}}
        for address in [("127.0.0.1", {port}), ("1.1.1.1", 53), ("8.8.8.8", 443), ("10.0.0.1", 80)]:
            try:
                socket.create_connection(address, timeout=2).close()
                results[str(address)] = "connected"
            except OSError as error:
                results[str(address)] = type(error).__name__
        print(results, socket.if_nameindex())
    """
    try:
        outcome = python(script, tmp_path, limits=sandbox.Limits(wall_s=30))
        listener.settimeout(0.5)
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert outcome.returncode == 0, outcome.stderr
    assert "connected" not in outcome.stdout
    assert outcome.stdout.strip().endswith("[(1, 'lo')]")


def daemon_script(sentinel: Path, marker: str, then: str = "") -> str:
    """Double-fork a setsid daemon that writes 'late' (a file of the workdir) after 3 s."""
    late = f"import time; time.sleep(3); open('{WORK}/late', 'w').write('escaped')"
    return guard(sentinel) + textwrap.dedent(f"""
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", {late!r}, {marker!r}])
            os._exit(0)
        os.wait()
        print("daemon started", flush=True)
    """) + then


def test_nothing_outlives_the_run(tmp_path, sentinel, monkeypatch):
    marker = f"marker-{uuid.uuid4().hex}"
    cgroup_parents = sandbox._cgroup_parents(("pids", "memory"))
    cases = {"exits": "", "times out": "while True:\n    pass\n"}
    outcomes = {}
    for name, then in cases.items():
        workdir = tmp_path / name.replace(" ", "-")
        workdir.mkdir()
        (workdir / "late").write_text("")
        outcomes[name] = (workdir, python(daemon_script(sentinel, marker, then), workdir,
                                          limits=sandbox.Limits(wall_s=2)))
        assert host_processes(sandbox_uid(), marker) == [], name   # gone at once
    # without cgroups the pid namespace alone must end them
    monkeypatch.setattr(sandbox, "_cgroup_parents", lambda controllers: [])
    workdir = tmp_path / "no-cgroup"
    workdir.mkdir()
    (workdir / "late").write_text("")
    outcomes["no cgroup"] = (workdir, python(daemon_script(sentinel, marker), workdir))
    assert host_processes(sandbox_uid(), marker) == []
    time.sleep(5)
    assert host_processes(sandbox_uid(), marker) == []
    for parent, _ in cgroup_parents:                                   # the run's cgroups removed
        assert not list(parent.glob(f"{sandbox.CGROUP_PREFIX}{os.getpid()}-*")), parent
    for name, (workdir, outcome) in outcomes.items():
        assert outcome.stdout == "daemon started\n", (name, outcome)
        assert outcome.timed_out == (name == "times out")
        assert (workdir / "late").read_text() == "", name


# every process forks for ever, and shrugs off a refused fork
BOMB = """
tag = "forkbomb-"
while True:
    try:
        os.fork()
    except OSError:
        pass
"""


def peak_processes(count, action):
    """Call ``action()`` while sampling ``count()`` every 50 ms: (its result, the largest count)."""
    samples = []
    done = threading.Event()

    def watch():
        while not done.is_set():
            samples.append(count())
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        return action(), max(samples, default=0)
    finally:
        done.set()
        watcher.join()


def test_fork_bomb_is_contained(tmp_path, sentinel):
    limits = sandbox.Limits(wall_s=4, processes=64)
    start = time.monotonic()
    # as root: the processes of the sandbox's uid; else those with the marker (bwrap's two too)
    outcome, peak = peak_processes(
        lambda: len(host_processes(sandbox_uid(), None if AS_ROOT else "forkbomb-")),
        lambda: python(guard(sentinel) + BOMB, tmp_path, limits=limits))
    assert time.monotonic() - start < limits.wall_s + 10
    assert outcome.timed_out and outcome.returncode is None
    assert 1 < peak <= limits.processes + (0 if AS_ROOT else 2)
    assert host_processes(sandbox_uid(), "forkbomb-") == []


def hog(chunks: int, processes: int = 1) -> str:
    """Allocate and touch ``chunks`` x 100 MiB in each of ``processes`` processes."""
    return textwrap.dedent(f"""
        for _ in range({processes} - 1):
            if os.fork() == 0:
                break
        held = []
        try:
            for _ in range({chunks}):
                held.append(b"x" * (100 << 20))
            print("allocated", flush=True)
            time.sleep(2)
            print("held", flush=True)
        except MemoryError:
            print("MemoryError", flush=True)
        while True:
            try:
                os.wait()
            except ChildProcessError:
                break
    """)


def test_memory_hog_fails(tmp_path, sentinel):
    limits = sandbox.Limits(wall_s=30, memory_bytes=1 << 30)
    outcome = python(guard(sentinel) + "import time\n" + hog(200), tmp_path, limits=limits)
    assert "allocated" not in outcome.stdout
    assert "MemoryError" in outcome.stdout or outcome.returncode != 0
    assert not outcome.timed_out


def test_memory_of_the_whole_sandbox_is_capped_by_its_cgroup(tmp_path, sentinel):
    if not sandbox._cgroup_parents(("memory",)):
        if AS_ROOT and os.environ.get("CI") == "true" and os.access("/sys/fs/cgroup/memory", os.W_OK):
            pytest.fail("running as root with cgroup v1 memory, but no writable cgroup found")
        pytest.skip("no writable cgroup v1 memory controller here")
    limits = sandbox.Limits(wall_s=30, memory_bytes=600 << 20)
    # three processes of 400 MiB each: each is under RLIMIT_AS, together over the cgroup
    outcome = python(guard(sentinel) + "import time\n" + hog(4, processes=3), tmp_path, limits=limits)
    assert outcome.stdout.count("held") < 3, outcome


def test_endless_loop_is_killed_at_the_wall_limit(tmp_path):
    start = time.monotonic()
    outcome = python("print('looping', flush=True)\nwhile True:\n    pass\n", tmp_path,
                     limits=sandbox.Limits(wall_s=3))
    elapsed = time.monotonic() - start
    assert outcome == sandbox.Outcome(None, True, "looping\n", "")
    assert 3 <= elapsed < 8


def test_file_larger_than_the_limit_cannot_be_written(tmp_path):
    (tmp_path / "big").write_text("")      # a file of the workdir: the host's disk
    script = """
        try:
            with open("big", "wb") as file:
                for _ in range(4):
                    file.write(b"x" * (1 << 19))
            print("wrote 2 MiB")
        except OSError as error:
            print(type(error).__name__, error.errno)
    """
    outcome = python(script, tmp_path, limits=sandbox.Limits(file_bytes=1 << 20))
    assert outcome.returncode == 0, outcome.stderr
    assert outcome.stdout.strip() == "OSError 27"                  # EFBIG
    assert (tmp_path / "big").stat().st_size <= 1 << 20


# Fill the space: many empty files in /tmp, then 1 MiB files in /dev/shm, then one huge file in
# the work folder; each until refused. Then write the one host file (a result must still come
# back when the space is full) and show how the space is mounted.
FILL = """
import errno, json, os
def fill(folder, size, count):
    made = 0
    try:
        while made < count:
            with open(f"{folder}/f{made}", "wb") as file:
                file.write(b"x" * size)
            made += 1
    except OSError as error:
        return made, errno.errorcode[error.errno]
    return made, "none"
def huge(path):
    written = 0
    try:
        with open(path, "wb") as file:
            while written < 8 << 30:
                written += file.write(b"x" * (1 << 20))
    except OSError as error:
        return written, errno.errorcode[error.errno]
    return written, "none"
result = {"files": fill("/tmp", 0, 1_000_000), "shm": fill("/dev/shm", 1 << 20, 100_000),
          "huge": huge("/home/student/work/huge")}
open("answer.txt", "w").write("still here")
result["mounts"] = sorted(line.split(" - ")[1] for line in open("/proc/self/mountinfo")
                          if line.split()[4] in ("/tmp", "/dev/shm", "/home/student/work"))
print(json.dumps(result))
"""


def test_the_space_holds_at_most_its_bytes_and_files(tmp_path, sentinel):
    """Many files, many large files and one huge file, written to the work folder, /tmp and
    /dev/shm, all end in one tmpfs of ``space_bytes`` and ``space_files``: refused at its bound,
    never on the host's disk, while the workdir's own file still takes the result."""
    (tmp_path / "answer.txt").write_text("")
    limits = sandbox.Limits(space_bytes=24 << 20, space_files=500, file_bytes=16 << 20)
    outcome = python(guard(sentinel) + FILL, tmp_path, limits=limits)
    assert outcome.returncode == 0, outcome.stderr
    found = json.loads(outcome.stdout)
    made, why = found["files"]
    assert 400 < made <= 500 and why == "ENOSPC", found["files"]
    made, why = found["shm"]        # the files of /tmp hold the inodes: hardly any one is left
    assert made < 100 and why == "ENOSPC", found["shm"]
    written, why = found["huge"]
    assert written <= 24 << 20 and why in ("ENOSPC", "EFBIG"), found["huge"]
    # one tmpfs (the same options three times), not the host's disk
    assert len(set(found["mounts"])) == 1, found["mounts"]
    assert found["mounts"][0].startswith("tmpfs ") and "nr_inodes=500" in found["mounts"][0]
    assert "size=24576k" in found["mounts"][0]
    assert (tmp_path / "answer.txt").read_text() == "still here"
    assert [p.name for p in tmp_path.iterdir()] == ["answer.txt"]


def test_each_run_has_its_own_empty_space(tmp_path):
    """What one run wrote (work folder, /tmp, /dev/shm) is gone for the next run in that slot."""
    script = """
        import os
        print(sorted(os.listdir(".")), sorted(os.listdir("/tmp")), sorted(os.listdir("/dev/shm")))
        for folder in (".", "/tmp", "/dev/shm"):
            open(os.path.join(folder, "left-behind"), "w").write("x")
    """
    outcomes = [python(script, tmp_path) for _ in range(2)]
    first, second = [o.stdout for o in outcomes]
    # a read-only bind under /tmp (a checkout there) shows as its mount point: the same both times
    assert first == second, outcomes
    assert "left-behind" not in second, outcomes
    assert first.startswith("[] "), outcomes
    assert list(tmp_path.iterdir()) == []


def busy(processes: int, seconds: float, sessions: bool) -> str:
    """``processes`` busy loops for ``seconds``, each in a session of its own if ``sessions``
    (the kernel's autogroup then gives each one a share); prints their CPU seconds."""
    return textwrap.dedent(f"""
        import os, resource, time
        end = time.monotonic() + {seconds}
        for _ in range({processes}):
            if os.fork() == 0:
                if {sessions}:
                    os.setsid()
                while time.monotonic() < end:
                    pass
                os._exit(0)
        while True:
            try:
                os.wait()
            except ChildProcessError:
                break
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(usage.ru_utime + usage.ru_stime)
    """)


def cpu_seconds(tmp_path) -> tuple[float, float]:
    """CPU seconds of an honest run (a busy loop per core, one session) and of a greedy one
    beside it (four per core, each its own session), run at the same time."""
    cores = os.cpu_count() or 1
    scripts = {"honest": busy(cores, 3, sessions=False),
               "greedy": busy(4 * cores, 3, sessions=True)}
    with ThreadPoolExecutor(2) as pool:
        futures = {}
        for slot, (name, script) in enumerate(scripts.items(), start=SLOT):
            (tmp_path / name).mkdir(parents=True)
            futures[name] = pool.submit(python, script, tmp_path / name, slot=slot,
                                        limits=sandbox.Limits(wall_s=60, processes=8 * cores + 8))
        seconds = {}
        for name, future in futures.items():
            outcome = future.result()
            assert outcome.returncode == 0, outcome.stderr
            seconds[name] = float(outcome.stdout)
    return seconds["honest"], seconds["greedy"]


def test_each_run_holds_one_cpu_share(tmp_path, monkeypatch):
    """A run that starts many sessions (many autogroups) gets no more CPU than its neighbour: one
    cpu cgroup each, of equal shares. Without the cgroups the same greedy run takes most of it."""
    if not sandbox._cgroup_parents(("cpu",)):
        if AS_ROOT and os.environ.get("CI") == "true" and os.access("/sys/fs/cgroup/cpu", os.W_OK):
            pytest.fail("running as root with cgroup v1 cpu, but no writable cgroup found")
        pytest.skip("no writable cgroup v1 cpu controller here")
    honest, greedy = cpu_seconds(tmp_path / "shares")
    assert honest > 0.6 * greedy, (honest, greedy)
    monkeypatch.setattr(sandbox, "_cgroup_parents", lambda controllers: [])
    honest, greedy = cpu_seconds(tmp_path / "autogroups")
    assert honest < 0.5 * greedy, (honest, greedy)      # the attack the shares stop


def test_the_environment_is_a_parameter(tmp_path):
    """``python`` names the environment the sandbox holds: another one, and this venv is absent."""
    system = "/usr/bin/python3"
    if not os.path.exists(system) or os.path.realpath(system) == os.path.realpath(sys.executable):
        pytest.skip("needs a system python3 apart from this venv's")
    code = f"import os, sys; print(sys.prefix, os.path.exists({sys.prefix!r}))"
    outcome = sandbox.run([system, "-c", code], workdir=tmp_path, python=system, slot=SLOT)
    assert outcome.returncode == 0, outcome.stderr
    assert outcome.stdout == "/usr False\n"


def test_output_is_capped(tmp_path):
    outcome = python("import sys\nsys.stdout.write('a' * 200_000 + 'END')\n", tmp_path)
    assert outcome.returncode == 0
    assert len(outcome.stdout) == sandbox.OUTPUT_CAP and outcome.stdout.endswith("aEND")


def test_parallel_runs_do_not_see_each_other(tmp_path):
    workdirs = [tmp_path / "a", tmp_path / "b"]
    for workdir in workdirs:
        workdir.mkdir()
        (workdir / f"{workdir.name}.ipynb").write_text("{}")
    script = f"""
        import os, time
        time.sleep(1)
        others = [p for p in {[str(w) for w in workdirs]!r} if os.path.exists(p)]
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        print(os.getuid(), sorted(os.listdir(".")), others, len(pids))
    """
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(python, script, workdir, slot=slot)
                   for slot, workdir in enumerate(workdirs, start=SLOT)]
        outcomes = [f.result() for f in futures]
    for slot, (workdir, outcome) in enumerate(zip(workdirs, outcomes), start=SLOT):
        assert outcome.returncode == 0, outcome.stderr
        uid = sandbox_uid(slot) if AS_ROOT else os.getuid()
        assert outcome.stdout.split(" ", 1) == [str(uid), f"['{workdir.name}.ipynb'] [] 2\n"]


@pytest.mark.skipif(not AS_ROOT, reason="uids are chosen only when running as root")
def test_one_slot_in_parallel_still_gets_two_uids(tmp_path):
    """Two graders on one host may both ask for a slot: the second run takes the next free uid."""
    workdirs = [tmp_path / "a", tmp_path / "b"]
    for workdir in workdirs:
        workdir.mkdir()
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(python, "import os, time\ntime.sleep(1)\nprint(os.getuid())", w)
                   for w in workdirs]
        uids = {int(f.result().stdout) for f in futures}
    assert uids == {sandbox_uid(), sandbox_uid() + 1}


def test_java_starts_inside(tmp_path):
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java is missing under CI=true")
        pytest.skip("java is not installed")
    for argv in (["java", "-Xmx1g", "-version"], ["java", "-version"]):
        outcome = sandbox.run(argv, workdir=tmp_path, slot=SLOT)  # the default Limits
        assert outcome.returncode == 0, outcome.stderr
        assert "OpenJDK" in outcome.stderr or "Java" in outcome.stderr


def test_kind_is_none_without_bwrap(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert sandbox.kind.__wrapped__() is None


@pytest.mark.parametrize("kwargs, error", [
    (dict(argv=[]), TypeError),
    (dict(argv="python"), TypeError),
    (dict(slot=-1), ValueError),
    (dict(slot=sandbox.MAX_SLOTS), ValueError),
    (dict(binds=[(Path("/usr"), "relative")]), ValueError),
    (dict(binds=[(Path("/usr"), "/opt/../etc")]), ValueError),
    (dict(binds=[(Path("/nonexistent-evalkit"), "/opt/x")]), ValueError),
    (dict(binds=[(Path("/usr"), "/")]), ValueError),
    (dict(binds=[(Path("/usr"), WORK)]), ValueError),
    (dict(binds=[(Path("/usr"), "/proc/x")]), ValueError),
    (dict(workdir=Path("/nonexistent-evalkit")), ValueError),
    (dict(python="python3"), ValueError),
    (dict(binds=[(Path("/usr"), "/.sandbox/x")]), ValueError),
])
def test_bad_arguments_are_refused(tmp_path, kwargs, error):
    arguments = dict(argv=["true"], workdir=tmp_path) | kwargs
    argv = arguments.pop("argv")
    with pytest.raises(error, match=next(iter(kwargs))):
        sandbox.run(argv, **arguments)


@pytest.mark.skipif(not AS_ROOT or not Path("/usr/bin/python3").exists(),
                    reason="needs root to switch to an unprivileged user with a readable python")
def test_user_namespace_path_as_an_unprivileged_user(sentinel):
    """The normal-user path (bwrap makes a user namespace), run by `nobody` with the system
    python, which can read a copy of the module (this venv lives in root's home)."""
    folder = Path(tempfile.mkdtemp())
    try:
        folder.chmod(0o755)
        shutil.copy(ROOT / "tools" / "sandbox.py", folder / "sandbox.py")
        work = folder / "work"
        work.mkdir()
        for name in ("out.txt", "answer.txt"):
            (work / name).write_text("")
            shutil.chown(work / name, "nobody")
        shutil.chown(work, "nobody")
        inner = guard(sentinel) + textwrap.dedent("""
            import socket
            pids = [p for p in os.listdir("/proc") if p.isdigit()]
            environs = [open(f"/proc/{pid}/environ", "rb").read().decode() for pid in pids]
            assert not any("hunter2" in e for e in environs + [str(os.environ)]), "environ leaked"
            open("out.txt", "w").write("x")
            os.chmod("out.txt", 0o6755)          # setuid: the caller's, were the bit left
            for path in ["/evil", "/home/student/evil", "/dev/evil", "/usr/evil"]:
                try:
                    open(path, "w").close()
                    sys.exit(f"wrote {path}")
                except OSError:
                    pass
            print(sorted(os.listdir("/")), len(pids), socket.if_nameindex(), os.path.exists("/root/.pyenv"))
        """)
        outer = textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {str(folder)!r})
            import sandbox
            from pathlib import Path
            print(sandbox.kind())
            out = sandbox.run([sys.executable, "-c", {inner!r}], workdir=Path({str(work)!r}))
            print(out.returncode, out.stdout.strip())
            print(out.stderr, file=sys.stderr)
            out = sandbox.run([sys.executable, "-c", {guard(sentinel) + BOMB!r}],
                              workdir=Path({str(work)!r}), limits=sandbox.Limits(wall_s=3, processes=32))
            print(out.timed_out)
            space = sandbox.Limits(space_bytes=24 << 20, space_files=500, file_bytes=16 << 20)
            out = sandbox.run([sys.executable, "-c", {guard(sentinel) + FILL!r}],
                              workdir=Path({str(work)!r}), limits=space)
            print(out.stdout.strip() or out.stderr)
            caps = "print(sorted(set(l.split()[1] for l in open('/proc/self/status') if l.startswith('Cap'))))"
            print(sandbox.run([sys.executable, "-c", caps], workdir=Path({str(work)!r})).stdout.strip())
        """)
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                   "/usr/bin/python3", "-c", outer]
        result, peak = peak_processes(
            lambda: len(host_processes(None, "forkbomb-")),
            lambda: subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60,
                                   env=dict(os.environ, GRADER_SECRET="hunter2")))
        assert result.returncode == 0, result.stderr
        assert 1 < peak <= 32 + 2                              # the bomb and bwrap's two processes
        assert host_processes(None, "forkbomb-") == []
        lines = result.stdout.splitlines()
        assert lines[0] == "bubblewrap"
        assert lines[1].startswith("0 [") and lines[1].endswith(" 2 [(1, 'lo')] False"), lines
        assert lines[2] == "True"
        filled = json.loads(lines[3])                         # the space holds on this path too
        assert filled["files"][0] <= 500 and filled["files"][1] == "ENOSPC", filled
        assert filled["huge"][0] <= 24 << 20, filled
        assert "nr_inodes=500" in filled["mounts"][0]
        assert lines[4] == "['0000000000000000']"           # no capability left, in any set
        assert (work / "answer.txt").read_text() == "still here"
        assert (work / "out.txt").read_text() == "x"
        assert (work / "out.txt").stat().st_mode & 0o7777 == 0o755
    finally:
        shutil.rmtree(folder)


def test_a_python_under_the_hosts_tmp_runs(tmp_path_factory):
    """A checkout (and its venv) under the host's /tmp is bound on top of the sandbox's own /tmp."""
    venv = Path(tempfile.mkdtemp(dir="/tmp")) / "venv"
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
                       check=True)
        probe = ("import importlib.util, sys\n"
                 f"spec = importlib.util.spec_from_file_location('sandbox', {str(ROOT / 'tools' / 'sandbox.py')!r})\n"
                 "m = importlib.util.module_from_spec(spec); sys.modules['sandbox'] = m\n"
                 "spec.loader.exec_module(m)\nprint(m.kind(), sys.prefix)\n")
        out = subprocess.run([str(venv / "bin" / "python"), "-c", probe], capture_output=True, text=True,
                             timeout=120)
        assert out.stdout.startswith("bubblewrap /tmp/"), (out.stdout, out.stderr[-2000:])
    finally:
        shutil.rmtree(venv.parent, ignore_errors=True)
