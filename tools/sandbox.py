"""Run one untrusted command (a student's notebook) in a bubblewrap sandbox.

The classroom grader (``tools/classroom.py``) runs every submission through :func:`run`; the
standard library is all this module uses, so the grader and the tests import it from its path,
and the sandbox runs it, as its own first step inside (see "How").

    kind() -> "bubblewrap" | None
        "bubblewrap" when a trivial sandboxed run of this Python works here, else None (no
        ``bwrap``, or it cannot make namespaces or mount the sandbox's space); the grader then
        refuses to grade unless the teacher asks for an unsafe run. Cached with
        :func:`functools.cache` (thread-safe).
    run(argv, *, workdir, binds=(), env={}, limits=Limits(), slot=0, python=sys.executable)
            -> Outcome
        Run ``argv`` inside a fresh sandbox, wait for it (at most ``limits.wall_s``), end every
        process it started, and return its exit code and the tail of its output.
    Limits(wall_s, memory_bytes, processes, file_bytes, open_files, space_bytes, space_files)
        The limits of one run (see the class).
    Outcome(returncode, timed_out, stdout, stderr)
        ``returncode`` is the command's exit status (128 + N when signal N killed it, e.g.
        137 for the out-of-memory killer), None when the run was killed at ``wall_s``
        (``timed_out`` is then True); ``stdout`` and ``stderr`` are the last 64 KiB of each,
        decoded as UTF-8 (the command writes them to unlinked host files, capped by
        RLIMIT_FSIZE).

What the sandbox sees
    A fresh root (tmpfs) holding: read-only binds of the system (``/usr``, ``/etc`` and the
    ``/bin``, ``/lib``, ``/lib64``, ``/sbin`` symlinks or folders as on the host), of the
    environment of ``python`` (its ``sys.prefix`` and ``sys.base_prefix``, at their own paths,
    so ``argv[0]`` may be that venv's python), and of each ``binds`` entry (host path -> path
    inside, read-only); a new ``/proc`` of its own pid namespace and a minimal read-only
    ``/dev``. Its one writable space is a tmpfs of its own, at most ``limits.space_bytes``
    bytes and ``limits.space_files`` files and folders, seen at ``/home/student/work`` (the
    current folder; ``HOME=/home/student``, which is not writable), ``/tmp`` and ``/dev/shm``;
    it is memory, never the host's disk, and it is gone when the run ends. In it, each
    regular file of the host folder ``workdir`` is at its own place under
    ``/home/student/work``, bound read-write: those files are the only host files the
    command can write (their content only: it cannot add, remove, rename or link a host
    file), and they are how a result comes back. All else is read-only. The environment
    is ``HOME``, ``PATH`` (the environment's ``bin`` first), ``LANG``, ``TMPDIR``,
    ``XDG_CACHE_HOME``, ``XDG_CONFIG_HOME``, ``XDG_DATA_HOME`` and ``IPYTHONDIR`` (under
    ``/tmp``: enough for a Jupyter kernel, matplotlib and fontconfig), then ``env``; nothing
    of the caller's environment is passed.

How
    bwrap with new pid, ipc, uts, network (its own loopback only) and cgroup namespaces,
    ``--die-with-parent`` and ``--new-session`` (no terminal injection). As root (CI), bwrap
    makes no user namespace and the command is started through ``setpriv`` as uid = gid =
    ``61000 + slot`` -- or the next uid up when another run on this host holds that one (an
    ``flock`` on ``/run/lock/evalkit-sandbox-<uid>.lock`` for the run) --, with no groups, no
    capabilities (also none inheritable, ambient or in the bounding set) and
    ``no_new_privs``; the binds are ``nosuid``; ``workdir`` is chowned to that uid before
    the run and back to its owner after (``lchown``, symlinks not followed). As another user,
    bwrap makes a user namespace (``--unshare-all``, ``--disable-userns``) and the command
    keeps the caller's uid inside it, its capabilities dropped the same way. bwrap itself
    gets only ``PATH`` of the caller's environment (its pid 1's environ is readable on that
    path). The first process inside is this module, run by ``python -I -S`` as the sandbox's
    own (trusted) step before any of the command's code: with ``CAP_SYS_ADMIN`` -- of the
    host as root, of the sandbox's own user namespace otherwise -- it makes a mount
    namespace of its own, mounts the space (tmpfs ``size=space_bytes``,
    ``nr_inodes=space_files``, ``nosuid``, ``nodev``), binds ``workdir``'s files into it and
    the space over ``/home/student/work``, ``/tmp`` and ``/dev/shm``, and then executes the
    command. Limits are set inside by ``prlimit`` on the command: RLIMIT_AS =
    ``memory_bytes`` per process, RLIMIT_NPROC = ``processes`` (counted per uid: hence one
    uid per run), RLIMIT_FSIZE = ``file_bytes``, RLIMIT_NOFILE = ``open_files`` and
    RLIMIT_CORE = 0. As root, where the cgroup v1 ``pids``, ``memory`` and ``cpu``
    controllers are mounted writable under /sys/fs/cgroup, each run also gets its own cgroup
    in each (a child of the caller's) with ``pids.max = processes``,
    ``memory.limit_in_bytes = memory_bytes`` for the whole sandbox (its space included) and
    ``cpu.shares = 1024``: every run holds one equal CPU share, however many processes or
    sessions it starts; each is emptied and removed after the run. At ``wall_s`` the
    sandbox's pid 1 is killed, and the kernel kills every process of the pid namespace with
    it (also a double-forked ``setsid`` daemon) before :func:`run` returns.

Threat model: the student controls everything that runs inside. Protected: every file of
the host outside the binds (the course folder, the answer key, the gradebook, other
submissions, /root, /work) -- neither readable nor writable; the binds -- readable, not
writable; the host's processes -- invisible and out of reach (pid namespace, other uid);
the network -- none, not even the host's 127.0.0.1 or its abstract unix sockets; the host's
disk -- a run adds no file to it, and writes at most ``file_bytes`` into each of
``workdir``'s files and into each of the two output files: (k + 2) x ``file_bytes`` for k
files (the grader: 8 x 16 MiB for a notebook of three exercises); the host's memory,
process table and CPU time -- bounded by the limits (the space is in memory: at most
``space_bytes`` and ``space_files`` inodes); nothing the student started outlives
:func:`run`. Parallel runs (threads or separate graders) get distinct uids and spaces and
cannot see or signal each other.

Not protected, the caller's part:
    - What the student wrote into ``workdir``'s files: anything, up to ``file_bytes`` each
      (the same files, no new ones; a set-user/group-id bit set on one is cleared after the
      run). Read them with a size cap and never trust their content.
    - Whatever is readable in the binds and in ``/etc`` and ``/usr`` (world-readable system
      files): never bind the course folder, the key or the gradebook. The venv is visible.
    - The kernel: a kernel exploit escapes any namespace sandbox. As root no seccomp filter
      is set, and the student may still create user namespaces (more kernel surface).
    - CPU without a writable cgroup v1 ``cpu`` controller (a normal user; a cgroup v2 host):
      the kernel's autogroup gives each session an equal share, and a student who starts
      many sessions (``setsid``) gets many shares until ``wall_s``.
    - Host-wide kernel facts in ``/proc`` (memory, load, uptime, kernel version): readable,
      like on any Linux machine; no host process, file or network is among them.
    - As a normal user (the user-namespace path; the tests run it as ``nobody``): no cgroup,
      so ``memory_bytes`` bounds each process, not their sum (the space stays bounded by
      ``space_bytes``), and RLIMIT_NPROC counts every process of the caller's uid.
    - If the grader itself is SIGKILLed, ``--die-with-parent`` still ends the sandbox (and
      its space with it), but ``workdir`` stays owned by the sandbox uid and an empty cgroup
      folder stays behind.

Java (PySpark): the JVM reserves address space for its heap and a 1 GiB class space up
front; ``java -version`` and ``java -Xmx1g -version`` (PySpark's default driver heap) start
under the default ``memory_bytes`` of 4 GiB; under 3 GiB plain ``java`` does not. With a
smaller limit, pass ``env={"JAVA_TOOL_OPTIONS": "-Xmx256m -XX:CompressedClassSpaceSize=64m"}``.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

__all__ = ["Limits", "Outcome", "kind", "run"]

HOME = "/home/student"
WORK = HOME + "/work"
FIRST_UID = 61000          # slot k runs as uid 61000 + k or the next free one (no such users)
MAX_SLOTS = 4000           # uids 61000..64999: below nobody (65534)
OUTPUT_CAP = 64 << 10      # bytes of stdout/stderr kept (the tail)
SYSTEM_DIRS = ("/usr", "/etc")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # symlink or folder
CGROUP_ROOT = Path("/sys/fs/cgroup")
LOCKS = "/run/lock"         # the uid locks' folder, where it exists (else the temporary folder)
CGROUP_PREFIX = "evalkit-sandbox-"
CPU_SHARES = 1024          # every run's cpu cgroup: one equal share (the kernel's default weight)
SETUP = "/.sandbox"        # inside: this module (the first step) and the space's mount point
SPACE = SETUP + "/space"
VIEWS = {"work": WORK, "tmp": "/tmp", "shm": "/dev/shm"}   # folder of the space -> seen at
RESERVED = ("/proc", "/dev", "/tmp", WORK, SETUP)  # the sandbox's own mounts: no bind covers them


@dataclass(frozen=True)
class Limits:
    """The limits of one sandboxed run (see the module docstring for how each is enforced)."""

    wall_s: float = 300.0          # wall-clock limit for the whole run
    memory_bytes: int = 4 << 30    # RLIMIT_AS per process; the cgroup memory limit when available
    processes: int = 256           # RLIMIT_NPROC of its uid; the cgroup pids.max when available
    file_bytes: int = 64 << 20     # largest file it may write (RLIMIT_FSIZE)
    open_files: int = 1024         # RLIMIT_NOFILE
    space_bytes: int = 512 << 20   # the writable space (work folder, /tmp, /dev/shm together)
    space_files: int = 20_000      # files and folders in that space (its inodes)


@dataclass(frozen=True)
class Outcome:
    """What a sandboxed run returned: exit code (None at a timeout) and its output's tail."""

    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str


@functools.cache
def kind() -> str | None:
    """Return "bubblewrap" when a sandboxed ``python -c`` runs here, else None."""
    if not all(shutil.which(tool) for tool in ("bwrap", "prlimit", "setpriv")):
        return None
    try:
        with tempfile.TemporaryDirectory() as work:
            probe = [sys.executable, "-c", "print('ok')"]
            outcome = run(probe, workdir=Path(work), limits=Limits(wall_s=60))
    except OSError:
        return None
    return "bubblewrap" if outcome.returncode == 0 and outcome.stdout == "ok\n" else None


def run(argv: list[str], *, workdir: Path, binds: Sequence[tuple[Path, str]] = (),
        env: Mapping[str, str] = MappingProxyType({}), limits: Limits = Limits(),
        slot: int = 0, python: str = sys.executable) -> Outcome:
    """Run ``argv`` in a fresh sandbox whose writable space is its own, bounded and in memory.

    Parameters
    ----------
    argv : list of str
        The command, as seen inside (e.g. ``[python, "runner.py"]``: that Python and its
        environment are bound at their own paths).
    workdir : Path
        Host folder whose regular files appear, bound read-write, at their places under
        ``/home/student/work`` (the command's current folder, in the sandbox's space): the
        command writes its results into them. Nothing else it writes reaches the host.
    binds : sequence of (Path, str)
        Host path -> absolute path inside, bound read-only.
    env : mapping of str to str
        Variables added to (or replacing) the sandbox's own environment.
    limits : Limits
        Wall clock, memory, processes, file size, open files and the space of the run.
    slot : int
        As root, the run's uid is ``61000 + slot``, or the next one that no other run holds.
    python : str
        The Python environment the sandbox holds (its ``sys.prefix`` and ``sys.base_prefix``,
        read-only); it also runs the sandbox's first step inside.

    Returns
    -------
    Outcome
        Exit status (None after ``limits.wall_s``) and the tails of stdout and stderr; every
        process of the sandbox has ended, its space is gone, and ``workdir`` is its owner's
        again.

    Raises
    ------
    TypeError, ValueError
        For a bad ``argv``, ``workdir``, ``binds``, ``slot`` or ``python`` (the message names
        it).
    """
    workdir = _checked(argv, workdir, binds, slot, python)
    with _free_uid(slot) as uid, _owned_by(workdir, uid), _cgroups(limits) as groups, \
            tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        command = _bwrap(argv, binds, env, limits, workdir, uid, python)
        info_read, info_write = os.pipe()   # bwrap writes its pid 1's host pid there
        with open(info_read, "rb", buffering=0) as info:
            with open(info_write, "wb", buffering=0):
                proc = subprocess.Popen(
                    _enter(groups, ["bwrap", "--info-fd", str(info_write), *command]),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=_host_env(),
                    pass_fds=(info_write,), start_new_session=True)
            returncode, timed_out = _wait(proc, info, limits.wall_s)
        return Outcome(returncode, timed_out, _tail(out), _tail(err))


def _host_env() -> dict[str, str]:
    """bwrap's own environment: only PATH. Its pid 1 keeps this environment, and without the
    root path's uid switch the student could read it in /proc/1/environ."""
    return {"PATH": os.environ.get("PATH", os.defpath)}


def _checked(argv, workdir, binds, slot, python) -> Path:
    """Refuse arguments that would make a broken or a leaky sandbox; return the workdir."""
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)):
        raise TypeError(f"argv must be a non-empty list of str, got {argv!r}")
    if not (isinstance(slot, int) and 0 <= slot < MAX_SLOTS):
        raise ValueError(f"slot must be an int in [0, {MAX_SLOTS}), got {slot!r}")
    for host, inside in binds:
        if not Path(host).exists():
            raise ValueError(f"binds: {host} does not exist")
        if not inside.startswith("/") or ".." in inside.split("/"):
            raise ValueError(f"binds: {inside!r} is not an absolute path without '..'")
        if inside.rstrip("/") in ("", *RESERVED) or inside.startswith(tuple(r + "/" for r in RESERVED)):
            raise ValueError(f"binds: {inside!r} would cover the sandbox's own {', '.join(RESERVED)} or /")
    if not (isinstance(python, str) and os.path.isabs(python) and os.access(python, os.X_OK)):
        raise ValueError(f"python: {python!r} is not the absolute path of an interpreter")
    workdir = Path(workdir).resolve()
    if not workdir.is_dir():
        raise ValueError(f"workdir: {workdir} is not a folder")
    return workdir


@functools.cache
def _environment(python: str) -> tuple[str, ...]:
    """The folders ``python`` runs from: its base prefix and prefix (one for a plain Python)."""
    if python == sys.executable:
        prefixes = [sys.base_prefix, sys.prefix]
    else:   # the caller's own interpreter of another environment: ask it once (with its site
        # module: without it a venv's interpreter reports its base as its prefix)
        code = "import sys; print(sys.base_prefix); print(sys.prefix)"
        asked = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True,
                               timeout=60, check=True)
        prefixes = asked.stdout.splitlines()
    return tuple(dict.fromkeys(prefixes))


def _exchange(workdir: Path) -> tuple[list[str], list[str]]:
    """The folders and the regular files of ``workdir``, as paths relative to it (symlinks and
    special files are left out: they are not bound)."""
    folders, files = [], []
    for folder, dirs, names in os.walk(workdir):
        here = os.path.relpath(folder, workdir)
        for name in dirs:
            folders.append(os.path.normpath(os.path.join(here, name)))
        for name in names:
            if stat.S_ISREG(os.lstat(os.path.join(folder, name)).st_mode):
                files.append(os.path.normpath(os.path.join(here, name)))
    return folders, files


def _bwrap(argv, binds, env, limits, workdir, uid, python) -> list[str]:
    """bwrap's arguments (without the program name) for one run."""
    environment = _environment(python)
    ro = [(Path(p), p) for p in SYSTEM_DIRS]
    ro += [(Path(p), p) for p in environment]
    ro += [(Path(host).resolve(), inside) for host, inside in binds]
    ro.append((Path(__file__).resolve(), f"{SETUP}/sandbox.py"))
    mounts = ["--tmpfs", "/"]
    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            mounts += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            ro.append((Path(link), link))
    # bwrap makes missing parent folders mode 0700 (root's only): make them 0755 first
    for folder in _parents([inside for _, inside in ro] + [WORK, SPACE]):
        mounts += ["--perms", "0755", "--dir", folder]
    for host, inside in ro:
        mounts += ["--ro-bind", str(host), inside]
    folders, files = _exchange(workdir)
    for name in files:   # the first step moves them into the space
        mounts += ["--bind", str(workdir / name), f"{WORK}/{name}"]
    mounts += ["--dir", WORK, "--dir", SPACE, "--dir", "/tmp", "--proc", "/proc", "--dev", "/dev",
               "--dir", "/dev/shm", "--chdir", WORK]
    # the rest is read-only (with a user namespace the student owns the root tmpfs and /dev)
    mounts += ["--remount-ro", "/dev", "--remount-ro", "/"]
    # HOME is read-only: caches and settings (matplotlib, fontconfig, Jupyter) go to /tmp
    variables = {"HOME": HOME, "TMPDIR": "/tmp", "LANG": "C.UTF-8",
                 "XDG_CACHE_HOME": "/tmp/.cache", "XDG_CONFIG_HOME": "/tmp/.config",
                 "XDG_DATA_HOME": "/tmp/.local/share", "IPYTHONDIR": "/tmp/.ipython",
                 "PATH": f"{environment[-1]}/bin:/usr/local/bin:/usr/bin:/bin", **env}
    mounts += ["--clearenv"]
    for name, value in variables.items():
        mounts += ["--setenv", name, value]
    # the first step inside: mount the space, then run the command with its limits, unprivileged
    space = {"space_bytes": limits.space_bytes, "space_files": limits.space_files, "uid": uid,
             "folders": folders, "files": files, "carry": _under_tmp(p for p in environment)}
    setup = [python, "-I", "-S", f"{SETUP}/sandbox.py", json.dumps(space), "--"]
    rlimits = ["prlimit", f"--as={limits.memory_bytes}", f"--nproc={limits.processes}",
               f"--fsize={limits.file_bytes}", f"--nofile={limits.open_files}", "--core=0", "--"]
    drop = ["--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    if uid is None:   # not root: a user namespace keeps the caller's (unprivileged) uid
        return ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP",
                *mounts, "--", *setup, *rlimits, "setpriv", *drop, *argv]
    # root: no user namespace (RLIMIT_NPROC ignores uid 0), so drop to a per-slot uid
    setpriv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *drop]
    return ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            *mounts, "--", *setup, *rlimits, *setpriv, *argv]


def _under_tmp(paths) -> list[str]:
    """The outermost of ``paths`` that lie under /tmp (a venv in a CI clone there): the first
    step carries them onto the space's /tmp, which would hide them."""
    inside = sorted(p for p in paths if p.startswith("/tmp/"))
    return [p for p in inside if not any(p.startswith(q + "/") for q in inside)]


def _parents(paths) -> list[str]:
    """Every proper ancestor folder of ``paths`` that no system bind covers, shallow first."""
    covered = SYSTEM_DIRS + SYSTEM_LINKS
    found = {str(p) for path in paths for p in Path(path).parents}
    keep = [p for p in found if p != "/" and not any(p == c or p.startswith(c + "/") for c in covered)]
    return sorted(keep, key=lambda p: (p.count("/"), p))


def _wait(proc, info, wall_s) -> tuple[int | None, bool]:
    """Wait for bwrap; at ``wall_s`` (or on an interrupt) end the sandbox and all it started."""
    try:
        return proc.wait(timeout=wall_s), False
    except subprocess.TimeoutExpired:
        _kill(proc, info)
        return None, True
    except BaseException:
        _kill(proc, info)
        raise


def _kill(proc, info) -> None:
    """Kill the sandbox's pid 1 and wait for bwrap to see it die.

    bwrap wrote ``{"child-pid": N}`` at start: N is pid 1 of the sandbox's pid namespace, and
    when it dies the kernel kills every process in the namespace before bwrap's wait on it
    returns -- so none is left when this returns.
    """
    try:
        child = json.loads(info.read(4096) or b"{}").get("child-pid")
        if child:
            os.kill(child, signal.SIGKILL)
    except (ValueError, ProcessLookupError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:   # bwrap itself stuck: its death kills pid 1 (die-with-parent)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _tail(file) -> str:
    """The last OUTPUT_CAP bytes written to ``file``, as text."""
    size = file.seek(0, os.SEEK_END)
    file.seek(max(0, size - OUTPUT_CAP))
    return file.read().decode("utf-8", errors="replace")


@contextmanager
def _free_uid(slot: int):
    """As root, the first uid from ``61000 + slot`` that no other run on this host holds (an
    flock on a lock file per uid, so two graders or a grader and the tests never share one);
    None when not root."""
    if os.geteuid() != 0:
        yield None
        return
    folder = Path(LOCKS) if os.path.isdir(LOCKS) else Path(tempfile.gettempdir())
    for uid in range(FIRST_UID + slot, FIRST_UID + MAX_SLOTS):
        path = folder / f"evalkit-sandbox-{uid}.lock"
        lock = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            continue
        try:
            yield uid
        finally:
            os.close(lock)
        return
    raise RuntimeError(f"slot: every sandbox uid from {FIRST_UID + slot} on is in use")


@contextmanager
def _owned_by(workdir: Path, uid: int | None):
    """As root, give ``workdir``'s tree to ``uid`` for the run and back to its owner after;
    on either path, no file in it keeps a set-user/group-id bit after the run (a student's
    setuid program must not become one of the owner's)."""
    owner = workdir.stat()
    if uid is not None:
        _chown_tree(workdir, uid, uid)
    try:
        yield
    finally:   # every sandboxed process has ended here: the tree no longer changes
        if uid is not None:
            _chown_tree(workdir, owner.st_uid, owner.st_gid)
        _strip_setid(workdir)


def _tree(top: Path):
    """``top`` and every path below it; symlinks are listed, never followed."""
    yield str(top)
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            yield os.path.join(folder, name)


def _chown_tree(top: Path, uid: int, gid: int) -> None:
    for path in _tree(top):
        os.lchown(path, uid, gid)


def _strip_setid(top: Path) -> None:
    setid = stat.S_ISUID | stat.S_ISGID
    for path in _tree(top):
        mode = os.lstat(path).st_mode
        if stat.S_ISREG(mode) and mode & setid:
            os.chmod(path, stat.S_IMODE(mode) & ~setid)


@contextmanager
def _cgroups(limits: Limits):
    """As root with writable cgroup v1 pids, memory and cpu controllers: one new cgroup in each
    (a child of this process's own), limited, yielded, then emptied and removed."""
    settings = {"pids": {"pids.max": limits.processes},
                "memory": {"memory.limit_in_bytes": limits.memory_bytes},
                "cpu": {"cpu.shares": CPU_SHARES}}
    name = f"{CGROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
    groups = []
    try:
        for parent, controller in _cgroup_parents(tuple(settings)):
            group = parent / name
            group.mkdir()
            groups.append(group)
            for file, value in settings[controller].items():
                (group / file).write_text(str(value))
        yield groups
    finally:
        for group in groups:
            _remove_cgroup(group)


def _cgroup_parents(controllers) -> list[tuple[Path, str]]:
    """This process's own cgroup folder for each controller, when root may write there."""
    if os.geteuid() != 0:
        return []
    mine = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        for controller in names.split(","):
            mine[controller] = CGROUP_ROOT / controller / path.lstrip("/")
    found = [(mine.get(c), c) for c in controllers]
    return [(p, c) for p, c in found if p and os.access(p, os.W_OK) and (p / "cgroup.procs").exists()]


def _remove_cgroup(group: Path) -> None:
    """Kill whatever is still in ``group`` (nothing, normally), wait for it, remove it."""
    deadline = time.monotonic() + 10
    while True:
        pids = (group / "cgroup.procs").read_text().split()
        if not pids or time.monotonic() > deadline:
            break
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    group.rmdir()


def _enter(groups, argv) -> list[str]:
    """``argv`` started from a shell that first moves itself into each cgroup (a
    ``preexec_fn`` could do it too, but is unsafe in a threaded grader)."""
    for group in groups:
        argv = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(group / "cgroup.procs"), *argv]
    return argv


# -- the first step inside the sandbox ------------------------------------------------------
# Run as ``python -I -S /.sandbox/sandbox.py SPACE -- COMMAND`` by bwrap, before any code of
# the command, with CAP_SYS_ADMIN in the sandbox (see "How" in the module docstring).

CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x1000, 0x4000, 0x40000
MNT_DETACH = 0x2


def _syscall(libc, name, *args) -> None:
    """Call libc's ``name``; raise OSError when it fails."""
    if getattr(libc, name)(*args) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{name}{args!r}: {os.strerror(error)}")


def _mount(libc, source: str | None, target: str, fstype: str | None, flags: int,
           options: str | None = None) -> None:
    def c(text):
        return None if text is None else text.encode()

    _syscall(libc, "mount", c(source), c(target), c(fstype), ctypes.c_ulong(flags), c(options))


def _inside(space: dict, command: list[str]) -> None:
    """Mount the run's space and show it at the work folder, /tmp and /dev/shm; bind the
    workdir's files into it; then become ``command``.

    Its own mount namespace (with a user namespace, bwrap's belongs to the user namespace
    that ``--disable-userns`` left behind, where no mount is allowed), the space a tmpfs of
    ``space_bytes`` and ``space_files`` inodes. Every file bound at ``/home/student/work/NAME``
    by bwrap is bound again at the space's ``work/NAME``, the space's ``work`` then covers
    ``/home/student/work``: the workdir's files keep their places and nothing else of the
    host is writable.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    _syscall(libc, "unshare", CLONE_NEWNS)
    _mount(libc, None, "/", None, MS_REC | MS_PRIVATE)
    options = f"size={space['space_bytes']},nr_inodes={space['space_files']},mode=0755"
    _mount(libc, "tmpfs", SPACE, "tmpfs", MS_NOSUID | MS_NODEV, options)
    for name in VIEWS:
        os.mkdir(f"{SPACE}/{name}")
        os.chmod(f"{SPACE}/{name}", 0o755 if name == "work" else 0o1777)
    work = f"{SPACE}/work"
    for folder in [work] + [f"{work}/{name}" for name in space["folders"]]:
        os.makedirs(folder, exist_ok=True)
        if space["uid"] is not None:   # as root, the work folder is the sandbox uid's
            os.chown(folder, space["uid"], space["uid"])
    for name in space["files"]:
        open(f"{work}/{name}", "x").close()   # a mount point for the host file
        _mount(libc, f"{WORK}/{name}", f"{work}/{name}", None, MS_BIND)
    for path in space["carry"]:
        os.makedirs(SPACE + path)
        _mount(libc, path, SPACE + path, None, MS_BIND | MS_REC)
    for name, seen_at in VIEWS.items():
        _mount(libc, f"{SPACE}/{name}", seen_at, None, MS_BIND | MS_REC)
    _syscall(libc, "umount2", SPACE.encode(), MNT_DETACH)
    os.chdir(WORK)
    os.execvp(command[0], command)


if __name__ == "__main__":
    _inside(json.loads(sys.argv[1]), sys.argv[3:])
