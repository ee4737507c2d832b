# One command of the paper's scaffold, run inside the sandbox (its kernel executes this file's text with PARAMS set).
# The shell's state (working folder, exported variables) is carried from step to step by the harness, as SWE-agent's
# persistent session keeps it; the tools (view_xlsx, submit) are put on PATH in this sandbox's private /tmp.
# Prints one line: SCAFFOLD_STEP <json>.
import codecs, json, os, shutil, signal, subprocess, threading

P = json.loads(PARAMS)  # noqa: F821 (set by the harness)
TOOLS = '/tmp/.scaffold-tools/bin'
STATE = '/tmp/.scaffold-state'
# Each step runs in a fresh sandbox whose /tmp is empty: what the agent keeps in /tmp (the prompt's own advice is
# `cat > /tmp/script.py`) is carried in the work folder from step to step.
KEPT_TMP = os.path.join(P['jobDir'], '.scaffold-tmp')
NOT_KEPT = {'.scaffold-tools', '.scaffold-state', '.libreoffice-profile'}


def restore_tmp():
    if os.path.isdir(KEPT_TMP) and not os.path.islink(KEPT_TMP):
        shutil.copytree(KEPT_TMP, '/tmp', symlinks=True, dirs_exist_ok=True)


def keep_tmp():
    if os.path.lexists(KEPT_TMP):
        if os.path.isdir(KEPT_TMP) and not os.path.islink(KEPT_TMP):
            shutil.rmtree(KEPT_TMP, ignore_errors=True)
        else:
            os.unlink(KEPT_TMP)
    os.makedirs(KEPT_TMP, exist_ok=True)
    for name in os.listdir('/tmp'):
        if name in NOT_KEPT:
            continue
        src, dst = os.path.join('/tmp', name), os.path.join(KEPT_TMP, name)
        try:
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst, follow_symlinks=False)
        except OSError:
            pass


try:
    restore_tmp()
except OSError:
    pass
os.makedirs(TOOLS, exist_ok=True)
os.makedirs(STATE, exist_ok=True)
for name, text in P['tools'].items():
    with open(os.path.join(TOOLS, name), 'w') as fp:
        fp.write(text)
    os.chmod(os.path.join(TOOLS, name), 0o755)

env = dict(os.environ)
env.update(P['env'])
env['PATH'] = TOOLS + ':' + env.get('PATH', '/usr/bin:/bin')
# LibreOffice inside: a profile in /tmp (no passwd entry to find a home by).
env['UserInstallation'] = 'file:///tmp/.libreoffice-profile'
env['__SCAFFOLD_CMD'] = P['command']
env['__SCAFFOLD_CWD'] = P['cwd']
env['__SCAFFOLD_EXPORTS'] = P['exports']
env['__SCAFFOLD_JOB'] = P['jobDir']

SCRIPT = r'''
__scaffold_cmd="$__SCAFFOLD_CMD"; __scaffold_cwd="$__SCAFFOLD_CWD"; __scaffold_exports="$__SCAFFOLD_EXPORTS"; __scaffold_job="$__SCAFFOLD_JOB"
unset __SCAFFOLD_CMD __SCAFFOLD_CWD __SCAFFOLD_EXPORTS __SCAFFOLD_JOB
eval "$__scaffold_exports" 2>/dev/null
cd "$__scaffold_cwd" 2>/dev/null || cd "$__scaffold_job"
unset __scaffold_exports __scaffold_cwd __scaffold_job
eval "$__scaffold_cmd"
__scaffold_rc=$?
pwd > /tmp/.scaffold-state/cwd 2>/dev/null
export -p > /tmp/.scaffold-state/exports 2>/dev/null
exit $__scaffold_rc
'''


def syntax_check():
    r = subprocess.run(['bash', '-n'], input=P['command'], capture_output=True, text=True, env=env, timeout=30)
    return r.returncode == 0, r.stdout, r.stderr


class Collected:
    """The output as a terminal shows it (stdout and stderr together), keeping only its head, tail and length."""

    def __init__(self, keep):
        self.keep, self.head, self.tail, self.length, self.nonblank = keep, [], '', 0, False
        self.head_len = 0
        self.decoder = codecs.getincrementaldecoder('utf-8')('backslashreplace')

    def add(self, data, final=False):
        text = self.decoder.decode(data, final)
        if not text:
            return
        self.length += len(text)
        self.nonblank = self.nonblank or bool(text.strip())
        if self.head_len < self.keep:
            piece = text[: self.keep - self.head_len]
            self.head.append(piece)
            self.head_len += len(piece)
        self.tail = (self.tail + text)[-self.keep:]


ok, out, err = syntax_check()
if not ok:
    print('SCAFFOLD_STEP ' + json.dumps({'syntaxError': True, 'bashStdout': out, 'bashStderr': err}))
else:
    limit = P['maxObservation']
    half = limit // 2
    col = Collected(limit)
    proc = subprocess.Popen(['bash', '-c', SCRIPT], env=env, cwd=P['jobDir'], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def pump():
        while True:
            data = proc.stdout.read1(65536)
            if not data:
                break
            col.add(data)
        col.add(b'', True)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    timed_out = False
    try:
        rc = proc.wait(timeout=P['timeoutS'])
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = proc.wait()
    reader.join(5)
    keep_tmp()
    text = ''.join(col.head)
    state = {}
    if not timed_out:
        for key in ('cwd', 'exports'):
            try:
                with open(os.path.join(STATE, key)) as fp:
                    state[key] = fp.read().rstrip('\n') if key == 'cwd' else fp.read()
            except OSError:
                pass
    print('SCAFFOLD_STEP ' + json.dumps({
        'syntaxError': False,
        'timedOut': timed_out,
        'exitCode': rc,
        'whole': text if col.length <= limit else None,
        'head': text[:half],
        'tail': col.tail[-half:] if half else '',
        'length': col.length,
        'blank': not col.nonblank,
        'state': state,
    }))
