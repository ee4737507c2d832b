/**
 * Hostile code against the real bwrap sandbox. Every case asserts containment and that the worker (this process) and
 * the sandbox survive: after each case the same sandbox must still answer `1 + 1`.
 * "Observed" comments record what happened on this machine (Debian 12, root worker, cgroup v1 hybrid).
 */
import { createServer, type Server } from 'node:net';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult, Sandbox, SandboxRuntime } from '../../lib/sandbox/index';
import { createSandboxFactory } from '../../lib/sandbox/index';
import { repoRoot } from '../../lib/sandbox/paths';
import { nodeInside } from '../../lib/sandbox/runtime';
import { makeWorkRoot, placeRuntimeUnderTmp, testConfig } from './helpers';
import { waitUntil } from '../helpers/wait';

const FAKE_KEY = 'sk-test-FAKE-KEY-must-not-leak';

/**
 * The same attacks against both ways a bwrap kernel starts: its own bwrap process, or forked from the fork server
 * (lib/sandbox/zygote.py). For the fork server the work root (which the zygote itself sees, with the answer file in it)
 * is the temp root, so every case also checks that a forked kernel sees none of what the zygote sees.
 */
const LAUNCHERS = [
  { name: 'bwrap', config: () => ({ forkServer: false }), preimported: false, sandboxFiles: ['kernel.py'] },
  {
    name: 'bwrap, fork server',
    config: (root: string) => ({ forkServer: true, workRoot: root }),
    preimported: true,
    sandboxFiles: ['kernel.py', 'zygote.py'],
  },
];

/**
 * Where the sandbox's Python environment and kernel scripts live on the host: the checkout's own, and a copy placed
 * under /tmp in a folder whose name has a space and non-ASCII characters, reached through a symlink (CI checkouts),
 * in a folder the sandbox's uid may not enter when the worker is root.
 * Inside, both look the same: /opt/sheetbench.
 */
const PLACEMENTS: Array<{
  where: string;
  place: () => { runtime?: SandboxRuntime; hostPaths: string[]; cleanup: () => void };
}> = [
  { where: 'the checkout', place: () => ({ hostPaths: [repoRoot], cleanup: () => undefined }) },
  {
    // As root, its folder is mode 700 (mktemp -d): the sandbox reaches it only passed through (passThrough.ts).
    where: 'a /tmp path with a space, mode 700 as root',
    place: () => {
      const placed = placeRuntimeUnderTmp();
      if (process.getuid?.() === 0) chmodSync(placed.root, 0o700);
      return {
        runtime: placed.runtime,
        hostPaths: [placed.root, placed.runtime.python, repoRoot],
        cleanup: placed.cleanup,
      };
    },
  },
];

const CASES = LAUNCHERS.flatMap((launcher) => PLACEMENTS.map((placement) => ({ ...launcher, ...placement })));

describe.each(CASES)('attack suite ($name; runtime in $where)', (launcher) => {
  const env = makeWorkRoot();
  const placed = launcher.place();
  const factoryFor = (root: string) =>
    createSandboxFactory(
      { ...testConfig('bwrap'), ...launcher.config(root) },
      { warmModules: [], runtime: placed.runtime },
    );
  let sb: Sandbox;
  let listener: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    process.env.OPENAI_API_KEY = FAKE_KEY;
    listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
    const factory = await factoryFor(env.root);
    sb = await factory.create({
      workDir: env.workDir,
      limits: { maxFileMiB: 16, maxOutputBytes: 64 * 1024, maxProcesses: 48 },
    });
  });
  afterAll(async () => {
    delete process.env.OPENAI_API_KEY;
    await sb?.dispose();
    listener?.close();
    env.cleanup();
    placed.cleanup();
  });
  afterEach(async () => {
    expect(process.kill(process.pid, 0)).toBe(true);
    expect((await sb.execute('1 + 1')).stdout).toBe('2\n');
  });

  const run = (code: string, timeoutMs = 5000): Promise<ExecutionResult> => sb.execute(code, { timeoutMs });

  // A fork-server kernel starts with pandas already imported; a fresh interpreter (no warm-up here) does not.
  it('00 the kernel comes from the launcher under test', async () => {
    expect((await run('import sys\n"pandas" in sys.modules')).stdout).toBe(
      `${launcher.preimported ? 'True' : 'False'}\n`,
    );
  });

  // The environment imports its packages from its fixed path inside, whatever its host path (a fresh /tmp hides nothing).
  it('00b imports pandas and openpyxl from /opt/sheetbench/python', async () => {
    const r = await run(
      'import sys, pandas, openpyxl, matplotlib.pyplot\nprint(sys.prefix, pandas.__file__.startswith(sys.prefix), openpyxl.__file__.startswith(sys.prefix))',
      30_000,
    );
    expect(r.error).toBe('');
    expect(r.stdout).toBe('/opt/sheetbench/python True True\n');
  });

  // Observed: ConnectionRefusedError 111 (own empty network namespace); the listener saw 0 connections.
  it('01 cannot connect to a 127.0.0.1 listener on the host', async () => {
    const r = await run(
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2); print("CONNECTED")\nexcept OSError as e: print(type(e).__name__)`,
    );
    expect(r.stdout).not.toContain('CONNECTED');
    expect(r.stdout).toMatch(/ConnectionRefusedError|OSError/);
    expect(connections).toBe(0);
  });

  // Observed: only the loopback interface exists.
  it('02 sees only the loopback interface', async () => {
    expect((await run('import socket\n[n for _, n in socket.if_nameindex()]')).stdout).toBe("['lo']\n");
  });

  // Observed: socket.gaierror (no resolv.conf, no network).
  it('03 cannot resolve names', async () => {
    const r = await run(
      'import socket\ntry:\n    print(socket.getaddrinfo("example.com", 80))\nexcept OSError as e: print(type(e).__name__)',
    );
    expect(r.stdout.trim()).toBe('gaierror');
  });

  // Observed: FileNotFoundError (only a few /etc entries are bound, lib/sandbox/bwrap.ts).
  it('04 cannot read /etc/shadow or /etc/passwd', async () => {
    const r = await run(
      'import os\nprint(os.path.exists("/etc/shadow"), os.path.exists("/etc/passwd"), sorted(os.listdir("/etc")))',
    );
    expect(r.stdout).toMatch(/^False False \[/);
    expect(r.stdout).not.toContain('shadow');
  });

  // Observed: /root and /home do not exist; neither does any host path of the checkout or of the runtime.
  it('05 cannot see the host home or other top-level folders', async () => {
    // What the sandbox needs of the checkout is at fixed paths: the environment and the kernel scripts, read-only.
    const hostPaths = ['/root', '/home', ...placed.hostPaths];
    const r = await run(
      `import os, json\nprint(json.dumps([[os.path.exists(p) for p in ${JSON.stringify(hostPaths)}], sorted(os.listdir("/opt/sheetbench"))]))`,
    );
    const inside = [...launcher.sandboxFiles, 'python', ...(nodeInside().binds.length ? ['node'] : [])].sort();
    expect(JSON.parse(r.stdout)).toEqual([hostPaths.map(() => false), inside]);
  });

  // Observed: `..` from /job is the sandbox root (tmpfs), not the host parent that holds the answer file.
  it('06 ../ leads to the sandbox root, not the host parent', async () => {
    const r = await run('import os\nprint(sorted(os.listdir("..")), os.path.exists("../1_999_answer.xlsx"))');
    expect(r.stdout).toContain("'job'");
    expect(r.stdout).toMatch(/False\n$/);
    expect(r.stdout).not.toContain('answer');
  });

  // Observed: a whole-filesystem walk finds no *_answer.xlsx; the host file sits next to the work dir.
  it('07 cannot find any *_answer.xlsx anywhere', async () => {
    const r = await run(
      'import os\nhits=[os.path.join(d,f) for d,_,fs in os.walk("/") if not d.startswith("/proc") for f in fs if f.endswith("_answer.xlsx")]\nprint(hits)',
      20_000,
    );
    expect(r.stdout).toBe('[]\n');
    expect(existsSync(env.answerPath)).toBe(true);
  });

  // Observed: the host path of the answer file does not exist inside.
  it('08 cannot open the answer by its host absolute path', async () => {
    const r = await run(`open(${JSON.stringify(env.answerPath)}).read()`);
    expect(r.error).toContain('FileNotFoundError');
  });

  // Observed: symlinks resolve inside the sandbox's own tree; the worker refuses to follow them out of the work dir.
  it('09 symlink escapes fail inside and are refused by the worker', async () => {
    const r = await run(
      `import os\nos.symlink("/etc/shadow", "/job/l1")\nos.symlink(${JSON.stringify(env.answerPath)}, "/job/l2")\nos.symlink("../1_999_answer.xlsx", "/job/l3")\nfor l in ("l1","l2","l3"):\n    try: open("/job/"+l).read(); print("READ", l)\n    except OSError as e: print(l, type(e).__name__)`,
    );
    expect(r.stdout).not.toContain('READ');
    for (const link of ['l1', 'l2', 'l3'])
      await expect(sb.readFile(link)).rejects.toThrow(/outside the sandbox work dir/);
  });

  // Observed: pid 1 is bwrap's init with the sandbox's cleared env only; no host variables.
  it('10 /proc/1/environ and os.environ hold no host secrets', async () => {
    const r = await run(
      'import os\ntry: e1 = open("/proc/1/environ","rb").read().decode()\nexcept OSError as e: e1 = type(e).__name__\nprint(e1)\nprint(dict(os.environ))',
    );
    expect(process.env.OPENAI_API_KEY).toBe(FAKE_KEY);
    expect(r.stdout).not.toContain(FAKE_KEY);
    expect(r.stdout).not.toContain('OPENAI');
  });

  // Observed: the pid namespace shows only the sandbox's processes; host pids are unknown.
  it('11 cannot see or signal host processes', async () => {
    const r = await run(
      `import os\nprint(len([p for p in os.listdir("/proc") if p.isdigit()]) < 10)\ntry: os.kill(${process.pid}, 9); print("SENT")\nexcept OSError as e: print(type(e).__name__)`,
    );
    expect(r.stdout).toMatch(/^True\n(ProcessLookupError|PermissionError)/);
  });

  // Observed: OSError 30 Read-only file system for new files, 13 Permission denied for the root-owned python and kernel
  // script (the sandbox's uid does not own them; read-only besides); the host never gets the file.
  it('12 cannot write outside the work dir', async () => {
    const targets = [
      '/usr/evil.txt',
      '/opt/sheetbench/python/evil.txt',
      '/opt/sheetbench/python/bin/python',
      '/opt/sheetbench/kernel.py',
      '/etc/alternatives/evil',
    ];
    const r = await run(
      `for p in ${JSON.stringify(targets)}:\n    try: open(p, "a").write("x"); print("WROTE", p)\n    except OSError as e: print(e.errno)`,
    );
    expect(r.stdout).not.toContain('WROTE');
    expect(r.stdout.trim().split('\n')).toEqual(targets.map(() => expect.stringMatching(/^(13|30)$/)));
    expect(
      existsSync(
        join(dirname(dirname(placed.runtime?.python ?? join(repoRoot, '.tools/sandbox-py/bin/python'))), 'evil.txt'),
      ),
    ).toBe(false);
  });

  // Observed: OSError 28 No space left on device once the 64 MiB /tmp tmpfs is full (8 MiB files stay under RLIMIT_FSIZE).
  it('13 filling /tmp stops at its size limit', async () => {
    const r = await run(
      'import os, shutil\nchunk = b"x" * (8 << 20)\ntry:\n    for i in range(30): open(f"/tmp/fill{i}", "wb").write(chunk)\nexcept OSError as e: print(e.errno, i)\nfor i in range(30):\n    if os.path.exists(f"/tmp/fill{i}"): os.remove(f"/tmp/fill{i}")',
    );
    expect(r.stdout).toMatch(/^28 [78]\n$/);
  });

  // Observed: OSError 27 File too large at the 16 MiB RLIMIT_FSIZE of this sandbox (the work dir is on the host disk).
  it('14 filling the disk through the work dir stops at the file size limit', async () => {
    const r = await run(
      'chunk = b"x" * (1 << 20)\ntry:\n    with open("/job/big.bin", "wb") as f:\n        for _ in range(100): f.write(chunk)\nexcept OSError as e: print(e.errno)',
    );
    expect(r.stdout.trim()).toBe('27');
    expect(statSync(join(env.workDir, 'big.bin')).size).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  // Observed: "the kernel was killed by the memory limit": the cgroup (1 GiB) OOM-kills the kernel; it is restarted and the result says so.
  it('15 a 10 GB allocation is stopped', async () => {
    const r = await run('b = b"x" * (10 * 1024**3)', 30_000);
    expect(r.error).toMatch(/killed by the memory limit|MemoryError/); // cgroup here; MemoryError under the RLIMIT_AS fallback
  });

  // Observed: forks stop at pids.max (BlockingIOError 11); forked children exit instead of serving requests.
  it('16 a fork bomb is contained by the process limit', async () => {
    const r = await run(
      'import os\nn = 0\ntry:\n    while True:\n        os.fork(); n += 1\nexcept OSError as e: print("stopped", e.errno)',
      15_000,
    );
    expect(r.stdout + r.error).toMatch(/stopped 11|BlockingIOError|TimeoutError|died/);
  });

  // Observed: soft timeout after 1 s (TimeoutError), state kept.
  it('17 an infinite loop is interrupted', async () => {
    await run('mark = "kept"');
    const r = await run('while True: pass', 1000);
    expect(r).toMatchObject({ timedOut: true, stateReset: false });
    expect((await run('mark')).stdout).toBe("'kept'\n");
  });

  // Observed: a C loop (sum over a huge range) never yields to SIGALRM; the Node-side hard kill ends it.
  it('18 a loop inside one C call is hard-killed', async () => {
    const r = await run('sum(range(10**14))', 500);
    expect(r).toMatchObject({ timedOut: true, stateReset: true });
  });

  // Observed: 100 MB printed → 64 KiB kept, truncated=true; the kernel's memory stays bounded.
  it('19 100 MB of stdout is truncated', async () => {
    const r = await run('for _ in range(100): print("x" * 1_000_000)', 30_000);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(64 * 1024);
  });

  // Observed: raw fd 1 writes (what subprocesses do) are capped by the worker the same way.
  it('20 100 MB written straight to fd 1 is truncated', async () => {
    const r = await run('import os\nfor _ in range(100): os.write(1, b"y" * 1_000_000)', 30_000);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(64 * 1024);
  });

  // Observed: time.sleep(100) is interrupted at ~1 s.
  it('21 sleeping past the timeout is interrupted', async () => {
    const r = await run('import time\ntime.sleep(100)', 1000);
    expect(r.timedOut).toBe(true);
    // Far below the 100 s asked for: interrupted (how far past the 1 s timeout depends on the machine's load).
    expect(r.durationMs).toBeLessThan(30_000);
  });

  // Observed: SIGKILL to the parent (pid 1, bwrap's init inside the namespace) is ignored by the kernel rule for a
  // namespace's init; kill(-1) finds nothing else to signal (ProcessLookupError). Host processes are invisible (case 11).
  it('22 killing the parent or everything stays inside the sandbox', async () => {
    await run('alive = True');
    const r = await run('import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.kill(-1, signal.SIGKILL)\nalive');
    expect(r.error).toContain('ProcessLookupError');
    expect((await run('alive')).stdout).toBe('True\n');
  });

  // Observed: the kernel dies, the worker restarts it and the result says the state was reset.
  it('22b killing the kernel itself is reported as a state reset', async () => {
    const r = await run('import os, signal\nos.kill(os.getpid(), signal.SIGKILL)');
    expect(r).toMatchObject({ stateReset: true, exitCode: 137 });
    expect(r.error).toContain('restarted');
  });

  // Observed: the background writer runs only while the sandbox lives; dispose() kills it (pid namespace + cgroup).
  it('23 a background process does not outlive the sandbox', async () => {
    const other = makeWorkRoot();
    const victim = await (await factoryFor(other.root)).create({ workDir: other.workDir });
    await victim.execute(
      'import subprocess\nsubprocess.Popen(["sh","-c","while true; do echo x >> /job/bg.txt; sleep 0.05; done"], start_new_session=True)',
    );
    await waitUntil(() => existsSync(join(other.workDir, 'bg.txt')), 30_000, 'the background writer to start');
    await victim.dispose();
    const size = statSync(join(other.workDir, 'bg.txt')).size;
    await new Promise((r) => setTimeout(r, 400));
    expect(statSync(join(other.workDir, 'bg.txt')).size).toBe(size);
    other.cleanup();
  });

  // Observed: PTRACE_ATTACH to the sandbox's own pid 1 (bwrap's init, same uid, same namespaces) SUCCEEDS: there is no
  // seccomp filter. It gains nothing: that process has no capabilities either (checked below) and host processes are
  // not visible to attach to. Attaching to a pid outside the namespace fails with ESRCH.
  it('24 ptrace reaches nothing with more privilege than the code itself', async () => {
    const r = await run(
      `import ctypes, re\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.ptrace(16, ${process.pid}, 0, 0), ctypes.get_errno())\nprint(re.search(r"CapEff:\\s*(\\w+)", open("/proc/1/status").read())[1])`,
    );
    expect(r.stdout).toBe('-1 3\n0000000000000000\n');
  });

  // Observed: mount(2) returns -1 (EPERM); `unshare -U` fails (--disable-userns), so no new namespace can grant caps.
  it('25 mount and new user namespaces are refused', async () => {
    const r = await run(
      'import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None), ctypes.get_errno())\nprint(os.system("unshare -U true 2>/dev/null") != 0)',
    );
    expect(r.stdout).toMatch(/^-1 1\nTrue\n$/);
  });

  // Observed: uid 1000 inside, no effective or bounding capabilities.
  it('26 runs without capabilities as an unprivileged uid', async () => {
    const r = await run(
      'import re\ns = open("/proc/self/status").read()\nprint(re.search(r"CapEff:\\s*(\\w+)", s)[1], re.search(r"CapBnd:\\s*(\\w+)", s)[1], __import__("os").getuid())',
    );
    expect(r.stdout).toBe('0000000000000000 0000000000000000 1000\n');
  });

  // Observed: ValueError "not allowed to raise maximum limit".
  it('27 cannot raise its own limits', async () => {
    const r = await run(
      'import resource\nresource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))',
    );
    expect(r.error).toMatch(/ValueError: not allowed to raise maximum limit/);
  });

  // Observed: garbage on the reply fd is ignored; the real reply still arrives.
  it('28 cannot forge or corrupt protocol replies', async () => {
    const r = await run('import os\nos.write(3, b\'{"id": "999", "stdout": "forged"}\\nnot json\\n\')\nprint("real")');
    expect(r.stdout).toBe('real\n');
  });

  // Observed: input() gets EOF; the request stream stays private to the kernel.
  it('29 cannot read the request stream through stdin', async () => {
    const r = await run('import sys\nprint(repr(sys.stdin.read()))\nimport os\nprint(os.read(0, 100))');
    expect(r.stdout).toBe("''\nb''\n");
  });

  // Observed: /sys is not mounted, so cgroups and host devices are unreachable; /dev is a minimal devtmpfs.
  it('30 cannot reach /sys or host devices', async () => {
    const r = await run('import os\nprint(os.path.exists("/sys"), sorted(os.listdir("/dev")))');
    expect(r.stdout).toMatch(/^False \[/);
    expect(r.stdout).not.toMatch(/sda|nvme|vda/);
  });
});
