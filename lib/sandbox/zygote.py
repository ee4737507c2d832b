"""Fork server: one warm interpreter (pandas, openpyxl imported once) that sandboxed kernels fork from.

It runs inside bwrap like any kernel (no network, read-only /usr and venv, uid 1000 in its own user namespace that
cannot create another), but keeps CAP_SYS_ADMIN and CAP_SETPCAP there so each kernel it forks can be put in namespaces
of its own before any user code runs:

  zygote ─fork→ C (pid 1 of a new pid namespace: the zygote unshares it just before the fork and steps back into its
                   own right after): waits until the host has put it in the execution's cgroup ("go"), opens its
                   FIFOs, unshares mount/net/ipc/uts, binds /tmp/.jobs/<job> to /job, mounts a fresh /tmp over
                   /tmp (hiding every other job and FIFO), makes the shared root and /dev read-only with a fresh
                   /dev/shm and /dev/pts, mounts its own /proc, drops every capability, forks U, reaps until U
                   ends, exits with U's status
     U: new session, rlimits, no capabilities (bounding set too), no_new_privs, fresh env, then kernel.main()

Two forks of this large interpreter per kernel, not three: each fork copies its page tables (a few ms of kernel time),
so C is made pid 1 by the zygote's unshare instead of forking a pid 1 of its own.

So each kernel starts from the same clean state a fresh interpreter would (modules imported, no user code run), sees
only its own work dir, and cannot see or signal the zygote, other kernels or their files.

Protocol: JSON lines. Host → zygote on stdin:
  {"op": "spawn", "id": "7", "job": "<dir under /tmp/.jobs>", "fifos": "<dir under /tmp/.fifos>", "env": {...},
   "rlimits": {"fsize": n, "core": 0, "cpu": n, "as": n, "nproc": n}, "tmpBytes": n}
  {"op": "go", "id": "7"}      {"op": "kill", "id": "7"}
Zygote → host on stdout: {"op": "ready"}, {"op": "started", "id", "pid"} (the kernel's FIFOs exist from then on),
  {"op": "exited", "id", "code", "signal"}, {"op": "failed", "id", "error"} (nothing was started).
"""
import ctypes
import gc
import json
import os
import resource
import selectors
import signal
import socket
import sys

import kernel

PREIMPORTED = ['pandas', 'openpyxl']
for _name in PREIMPORTED:
    __import__(_name)
# The imports' garbage is freed before any fork, and what stays is moved out of the collector's reach: a collection in
# a kernel then never walks (and so never copies on write) the pages of the zygote's objects.
gc.collect()
gc.freeze()

MADV_COLLAPSE = 25
HUGE_PAGE = 2 << 20


def collapse_heap_into_huge_pages():
    """The interpreter's heap (its anonymous private memory: pandas and openpyxl imported) into 2 MiB pages, once.

    Every kernel is two forks of this process, and a fork copies (and an exit frees) one page-table entry per 4 KiB page
    mapped: most of a kernel's CPU is kernel time in clone, exit and copy-on-write faults. About 16 of the 46 MiB of
    anonymous memory lie in 2 MiB-aligned ranges (the rest is in smaller mappings). A 2 MiB page is one entry,
    shared until written; a kernel that writes into one gets its own copy of the 4 KiB page it wrote, as before.
    MADV_COLLAPSE (Linux 6.1) works whatever the system's THP setting. Best effort: a range the
    kernel cannot collapse (an older kernel, no free huge page, an empty or no-huge-page mapping) stays as it was.
    """
    madvise = libc.madvise
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    with open('/proc/self/maps') as maps:
        for line in maps:
            fields = line.split()
            low, high = (int(x, 16) for x in fields[0].split('-'))
            named = len(fields) > 5 and fields[5] != '[heap]'
            if fields[1] != 'rw-p' or named:
                continue
            start, end = (low + HUGE_PAGE - 1) & -HUGE_PAGE, high & -HUGE_PAGE
            if end > start:
                madvise(start, end - start, MADV_COLLAPSE)  # the mapping's flags stay: a kernel's new memory is 4 KiB pages

JOBS = '/tmp/.jobs'
FIFOS = '/tmp/.fifos'

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x4000000, 0x8000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NAME, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 15, 24, 38, 47, 4
# Process names (/proc/<pid>/comm): the host finds the zygote by its own (lib/sandbox/forkServer.ts's ZYGOTE_NAME).
ZYGOTE_NAME, KERNEL_NAME = b'sb-zygote', b'sb-kernel'
SETUP_FAILED = 126
MAX_FD = 65536

libc = ctypes.CDLL(None, use_errno=True)
RLIMITS = {'fsize': resource.RLIMIT_FSIZE, 'core': resource.RLIMIT_CORE, 'cpu': resource.RLIMIT_CPU,
           'as': resource.RLIMIT_AS, 'nproc': resource.RLIMIT_NPROC}


def check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, '%s: %s' % (what, os.strerror(err)))


def mount(source, target, fstype, flags, data=None):
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    check(libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)), 'mount %s' % target)


def set_name(name):
    check(libc.prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0), 'prctl(PR_SET_NAME)')


def die_with_parent(parent):
    """PR_SET_PDEATHSIG, then check the parent did not die before it was set (getppid() would have changed)."""
    check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), 'prctl(PDEATHSIG)')
    if os.getppid() != parent:
        raise OSError('parent %d already gone' % parent)


def safe_name(name):
    if not name or '/' in name or name in ('.', '..') or '\0' in name:
        raise ValueError('bad name %r' % name)
    return name


def own_pid_namespace():
    """The zygote runs as pid 1 of a pid namespace of its own, and returns an fd of it.

    Stepping back into it after each kernel's fork (setns) needs CAP_SYS_ADMIN over the namespace's owner, and bwrap's
    pid namespace belongs to the user namespace above ours: so the process bwrap started unshares one (owned by ours),
    forks the zygote into it and only waits for it, with the same exit status.
    """
    check(libc.unshare(CLONE_NEWPID), 'unshare(pid)')
    pid = os.fork()
    if pid:
        os.closerange(0, 2)  # the host talks to the zygote alone: its end of file is the zygote's
        os._exit(wait_status(pid))
    die_with_parent(0)
    set_name(ZYGOTE_NAME)
    # In the zygote, not before its fork: huge pages shared at a fork are split in the child (measured: 2 of 16 MiB left).
    collapse_heap_into_huge_pages()
    return os.open('/proc/self/ns/pid', os.O_RDONLY | os.O_CLOEXEC)


def fork_as_pid_1(own_namespace):
    """Forks a child that is pid 1 of a new pid namespace; the zygote's own children stay in its namespace."""
    check(libc.unshare(CLONE_NEWPID), 'unshare(pid)')
    pid = -1
    try:
        pid = os.fork()
        return pid
    finally:
        if pid != 0:  # the zygote (the child cannot, and need not, go back)
            check(libc.setns(own_namespace, CLONE_NEWPID), 'setns(own pid namespace)')


def isolate(req):
    """In C: own namespaces, only its own work dir, a fresh /tmp; the rest of /tmp/.jobs and /tmp/.fifos vanish."""
    job = os.path.join(JOBS, safe_name(req['job']))
    check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), 'unshare')
    mount(None, '/', None, MS_REC | MS_PRIVATE)
    # The path was made by the host; a symlink planted in it by earlier code must not redirect the bind.
    fd = os.open(job, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        if not os.readlink('/proc/self/fd/%d' % fd).startswith(JOBS + '/'):
            raise OSError('work dir %s resolves outside the jobs root' % job)
        mount('/proc/self/fd/%d' % fd, '/job', None, MS_BIND | MS_REC)
    finally:
        os.close(fd)
    mount('tmpfs', '/tmp', 'tmpfs', MS_NOSUID | MS_NODEV, 'size=%d,mode=1777' % int(req['tmpBytes']))
    # The root and /dev tmpfs are the zygote's, shared by every kernel: read-only here, with private /dev/shm and ptys.
    for path in ('/', '/dev'):
        mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    mount('tmpfs', '/dev/shm', 'tmpfs', MS_NOSUID | MS_NODEV, 'size=%d,mode=1777' % int(req['tmpBytes']))
    mount('devpts', '/dev/pts', 'devpts', MS_NOSUID | MS_NOEXEC, 'newinstance,ptmxmode=0666,mode=620')
    socket.sethostname('sandbox')


def drop_capabilities():
    """Empty bounding, ambient, effective, permitted and inheritable sets (what bwrap's --cap-drop ALL leaves)."""
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 'prctl(NO_NEW_PRIVS)')
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the last capability this kernel knows
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    check(libc.capset(header, (ctypes.c_uint32 * 6)()), 'capset')


def drop_privileges(req):
    """In U, last step before user code: what bwrap's --new-session, --clearenv and prlimit do."""
    os.setsid()
    for name, value in (req.get('rlimits') or {}).items():
        resource.setrlimit(RLIMITS[name], (int(value), int(value)))
    drop_capabilities()
    os.environ.clear()
    os.environ.update(req['env'])
    os.chdir('/job')
    if 'numpy' in sys.modules:
        sys.modules['numpy'].random.seed()  # `random` reseeds itself after fork; numpy's global generator does not


def open_fifos(req):
    """The host's ends are open; ours become fds 0 (requests), 1, 2 (raw output) and 3 (replies)."""
    base = os.path.join(FIFOS, safe_name(req['fifos']))
    fds = [os.open(os.path.join(base, name), flags | os.O_NOFOLLOW)
           for name, flags in (('in', os.O_RDONLY), ('out', os.O_WRONLY), ('err', os.O_WRONLY), ('reply', os.O_WRONLY))]
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 3:
            os.close(fd)


def wait_status(pid):
    """Waits for pid (reaping any other child meanwhile, as an init must) and returns an exit code for it."""
    while True:
        child, status = os.waitpid(-1, 0)
        if child == pid:
            return 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def run_kernel(req, go_fd):
    """Body of C (then U); never returns."""
    try:
        set_name(KERNEL_NAME)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.closerange(3, go_fd)
        os.closerange(go_fd + 1, MAX_FD)  # the zygote's selector, wake-up pipe, pid namespace and other go pipes
        # The zygote is outside C's pid namespace: getppid() says 0 while it lives, and also if it died before this
        # line; then its end of the go pipe is closed and the read below ends C.
        die_with_parent(0)
        if os.read(go_fd, 1) != b'g':
            raise OSError('the host never said go')
        os.close(go_fd)
        open_fifos(req)
        isolate(req)
        mount('proc', '/proc', 'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC)
        drop_capabilities()  # C only waits from here on; the kernel's code can see it as pid 1
        u = os.fork()
        if u:
            os.closerange(0, 4)
            os._exit(wait_status(u))
        drop_privileges(req)
        os.closerange(4, MAX_FD)
    except BaseException as exc:  # noqa: BLE001 - report why the kernel could not start, on its stderr
        try:
            os.write(2, ('sandbox setup failed: %s\n' % exc).encode())
        finally:
            os._exit(SETUP_FAILED)
    sys.argv = [kernel.KERNEL_FILE]
    kernel.main()
    os._exit(0)


class Zygote:
    def __init__(self, pid_namespace):
        self.pid_namespace = pid_namespace
        self.sel = selectors.DefaultSelector()
        self.kernels = {}  # id -> {'pid', 'go'}
        self.by_pid = {}
        self.buffered = b''

    def send(self, msg):
        data = (json.dumps(msg) + '\n').encode()
        while data:
            data = data[os.write(1, data):]

    def spawn(self, req):
        try:
            fifos = os.path.join(FIFOS, safe_name(req['fifos']))
            os.mkdir(fifos, 0o700)
            for name in ('in', 'out', 'err', 'reply'):
                os.mkfifo(os.path.join(fifos, name), 0o600)
        except (OSError, ValueError) as exc:
            return self.send({'op': 'failed', 'id': req['id'], 'error': 'could not make the kernel\'s FIFOs: %s' % exc})
        go_read, go_write = os.pipe()
        try:
            pid = fork_as_pid_1(self.pid_namespace)
        except OSError as exc:
            os.close(go_read)
            os.close(go_write)
            return self.send({'op': 'failed', 'id': req['id'], 'error': 'could not fork the kernel: %s' % exc})
        if pid == 0:
            run_kernel(req, go_read)
        os.close(go_read)
        self.kernels[req['id']] = {'pid': pid, 'go': go_write}
        self.by_pid[pid] = req['id']
        self.send({'op': 'started', 'id': req['id'], 'pid': pid})

    def go(self, kid):
        k = self.kernels.get(kid)
        if k and k['go'] is not None:
            os.write(k['go'], b'g')
            os.close(k['go'])
            k['go'] = None

    def kill(self, kid):
        k = self.kernels.get(kid)
        if k:
            try:
                os.kill(k['pid'], signal.SIGKILL)
            except ProcessLookupError:
                pass

    def reap(self):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            kid = self.by_pid.pop(pid, None)
            k = self.kernels.pop(kid, None)
            if k and k['go'] is not None:
                os.close(k['go'])
            if kid is not None:
                signaled = os.WIFSIGNALED(status)
                self.send({'op': 'exited', 'id': kid, 'code': None if signaled else os.WEXITSTATUS(status),
                           'signal': signal.Signals(os.WTERMSIG(status)).name if signaled else None})

    def handle(self, line):
        req = json.loads(line)
        op = req.get('op')
        if op == 'spawn':
            self.spawn(req)
        elif op == 'go':
            self.go(req['id'])
        elif op == 'kill':
            self.kill(req['id'])

    def serve(self):
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_write, False)
        signal.set_wakeup_fd(wake_write)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.sel.register(0, selectors.EVENT_READ, 'host')
        self.sel.register(wake_read, selectors.EVENT_READ, 'child')
        self.send({'op': 'ready', 'python': sys.version.split()[0], 'preimported': PREIMPORTED})
        while True:
            for key, _ in self.sel.select():
                if key.data == 'child':
                    os.read(wake_read, 4096)
                    self.reap()
                    continue
                chunk = os.read(0, 1 << 16)
                if not chunk:
                    return
                self.buffered += chunk
                while b'\n' in self.buffered:
                    line, self.buffered = self.buffered.split(b'\n', 1)
                    self.handle(line)


if __name__ == '__main__':
    Zygote(own_pid_namespace()).serve()
