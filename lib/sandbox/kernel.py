"""Persistent Python kernel for one conversation.

Protocol: one JSON request per line on stdin, one JSON reply per line on the reply fd (3 by default, so user output
written to fd 1/2 by os.system etc. can never corrupt the protocol).

  -> {"id": 1, "op": "exec", "code": "...", "timeout": 5.0, "maxOutput": 1048576}
  <- {"id": 1, "stdout": "...", "stderr": "...", "error": "", "result": "2", "timedOut": false, "truncated": false}
  -> {"id": 2, "op": "warm", "modules": ["pandas"]}     (imports in a background thread; no reply)

Before each reply the kernel writes a sentinel line to fd 1 and fd 2 so the host can tell which raw subprocess
output belongs to the cell.
"""
import ast
import contextlib
import io
import json
import os
import signal
import sys
import threading
import traceback

KERNEL_FILE = os.path.abspath(__file__) if '__file__' in globals() else '<kernel>'


class CellTimeout(BaseException):
    """BaseException so `except Exception` in user code cannot swallow the interrupt."""


class CappedBuffer(io.TextIOBase):
    def __init__(self, cap):
        self.cap = cap
        self.parts = []
        self.size = 0
        self.truncated = False

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError('write() argument must be str, not %s' % type(text).__name__)
        room = self.cap - self.size
        if room <= 0:
            self.truncated = True
            return len(text)
        if len(text) > room:
            self.truncated = True
        piece = text[:room]
        self.parts.append(piece)
        self.size += len(piece)
        return len(text)

    def getvalue(self):
        return ''.join(self.parts)


def _on_timer(signum, frame):
    raise CellTimeout()


def _user_frames(tb):
    """Drop the kernel's own frames from the top of a traceback."""
    while tb is not None and tb.tb_frame.f_code.co_filename == KERNEL_FILE:
        tb = tb.tb_next
    return tb


def condense_traceback(exc):
    """Like the official SpreadsheetBench feedback: the error line, the first cell frame and the last frame."""
    if isinstance(exc, SyntaxError):
        return ''.join(traceback.format_exception_only(type(exc), exc)).rstrip()
    frames = traceback.extract_tb(_user_frames(exc.__traceback__))
    if len(frames) > 3:
        cell_index = next((i for i, f in enumerate(frames) if f.filename.startswith('<cell')), 0)
        kept = [frames[cell_index]] + list(frames[-2:]) if cell_index < len(frames) - 2 else list(frames[-3:])
        omitted = len(frames) - len(kept)
        body = ''.join(traceback.format_list(kept[:1])) + '  ... %d frame(s) omitted ...\n' % omitted
        body += ''.join(traceback.format_list(kept[1:]))
    else:
        body = ''.join(traceback.format_list(frames))
    head = 'Traceback (most recent call last):\n' if frames else ''
    tail = ''.join(traceback.format_exception_only(type(exc), exc))
    return (head + body + tail).rstrip()


def _split_last_expression(code, filename):
    tree = ast.parse(code, filename, 'exec')
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
        return compile(tree, filename, 'exec'), compile(last, filename, 'eval')
    return compile(tree, filename, 'exec'), None


def run_cell(namespace, cell_no, code, timeout, cap):
    out, err = CappedBuffer(cap), CappedBuffer(cap)
    error, result, timed_out = '', None, False
    filename = '<cell %d>' % cell_no
    if timeout and timeout > 0:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            body, last = _split_last_expression(code, filename)
            exec(body, namespace)
            if last is not None:
                value = eval(last, namespace)
                if value is not None:
                    result = repr(value)[:cap]
    except CellTimeout:
        timed_out = True
        error = 'TimeoutError: execution exceeded %.3g s and was interrupted (kernel state kept)' % timeout
    except SystemExit as exc:
        error = 'SystemExit: %s (the kernel keeps running)' % (exc.code,)
    except BaseException as exc:  # noqa: BLE001 - every user failure becomes a result
        error = condense_traceback(exc)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {
        'stdout': out.getvalue(), 'stderr': err.getvalue(), 'error': error, 'result': result,
        'timedOut': timed_out, 'truncated': out.truncated or err.truncated,
    }


def warm(modules):
    def load():
        for name in modules:
            try:
                __import__(name)
            except Exception:  # noqa: BLE001 - warming is best effort
                pass
    threading.Thread(target=load, daemon=True).start()


def open_reply_channel(reply_fd):
    if reply_fd == 1:
        # Docker attach has no fd 3: keep the protocol on stdout, send everything the user writes to stderr.
        proto = os.fdopen(os.dup(1), 'w', buffering=1, encoding='utf-8')
        os.dup2(2, 1)
        sys.stdout = io.TextIOWrapper(os.fdopen(1, 'wb', buffering=0), encoding='utf-8', write_through=True)
        return proto
    return os.fdopen(reply_fd, 'w', buffering=1, encoding='utf-8')


def write_sentinels(req_id):
    mark = ('\n\x00sbk-end-%s\x00\n' % req_id).encode()
    for fd in (1, 2):
        try:
            os.write(fd, mark)
        except OSError:
            pass


def main():
    reply_fd = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    proto = open_reply_channel(reply_fd)
    signal.signal(signal.SIGALRM, _on_timer)
    namespace = {'__name__': '__main__', '__builtins__': __builtins__}
    # Keep the request channel private: user code reading stdin (input(), sys.stdin.read()) gets EOF instead.
    stdin = os.fdopen(os.dup(0), 'rb')
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sys.stdin = open(os.devnull, 'r')
    kernel_pid = os.getpid()
    proto.write(json.dumps({'op': 'ready', 'python': sys.version.split()[0]}) + '\n')
    cell_no = 0
    for line in stdin:
        try:
            req = json.loads(line)
        except ValueError:
            proto.write(json.dumps({'id': None, 'protocolError': 'request is not JSON'}) + '\n')
            continue
        if req.get('op') == 'warm':
            warm(req.get('modules') or [])
            continue
        cell_no += 1
        reply = run_cell(namespace, cell_no, req.get('code', ''), req.get('timeout'), int(req.get('maxOutput', 1 << 20)))
        if os.getpid() != kernel_pid:
            os._exit(0)  # a process the cell forked must never answer requests
        reply['id'] = req.get('id')
        sys.stdout.flush()
        write_sentinels(req.get('id'))
        proto.write(json.dumps(reply) + '\n')


if __name__ == '__main__':
    main()
