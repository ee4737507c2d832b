"""Long-lived preview process: pandas and openpyxl are imported once, each preview runs in a forked child.

Protocol: one JSON request per line on stdin, one JSON reply per line on stdout.
  -> {"id": "1", "path": "/abs/input.xlsx", "rows": 5, "timeout": 60}
  <- {"id": "1", "text": "..."}  or  {"id": "1", "error": "..."}

A child that crashes or hangs (killed at its timeout) fails only its own request; the parent stays warm.
"""
import ctypes
import json
import os
import selectors
import signal
import sys
import time
import traceback

import openpyxl  # noqa: F401 - pre-imported for the children (pandas' xlsx reader)
import pandas  # noqa: F401

from preview import preview


PR_SET_PDEATHSIG = 1


def child(path, rows, write_fd):
    # A child never outlives the server (a hung preview of a server that was killed).
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:
        os._exit(1)
    try:
        reply = {'text': preview(path, rows)}
    except BaseException as exc:  # noqa: BLE001 - every failure becomes the request's error
        reply = {'error': ''.join(traceback.format_exception_only(type(exc), exc)).strip()}
    data = json.dumps(reply).encode()
    view = memoryview(data)
    while view:
        view = view[os.write(write_fd, view):]
    os._exit(0)


def describe(status):
    if os.WIFSIGNALED(status):
        return 'the preview process crashed (signal %d)' % os.WTERMSIG(status)
    return 'the preview process exited with code %d without a result' % os.WEXITSTATUS(status)


def main():
    out = sys.stdout
    sel = selectors.DefaultSelector()
    sel.register(sys.stdin.fileno(), selectors.EVENT_READ, None)
    pending = {}  # read fd -> request state
    buffered = b''

    def reply(req_id, body):
        body['id'] = req_id
        out.write(json.dumps(body) + '\n')
        out.flush()

    def finish(fd, error=None):
        state = pending.pop(fd)
        sel.unregister(fd)
        os.close(fd)
        if error:
            os.kill(state['pid'], signal.SIGKILL)
        _, status = os.waitpid(state['pid'], 0)
        if error:
            return reply(state['id'], {'error': error})
        try:
            body = json.loads(b''.join(state['chunks']))
        except ValueError:
            body = {'error': describe(status)}
        reply(state['id'], body)

    while True:
        deadline = min((s['deadline'] for s in pending.values()), default=None)
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        for key, _ in sel.select(timeout):
            if key.data is None:
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    return
                buffered += chunk
                while b'\n' in buffered:
                    line, buffered = buffered.split(b'\n', 1)
                    req = json.loads(line)
                    read_fd, write_fd = os.pipe()
                    pid = os.fork()
                    if pid == 0:
                        os.close(read_fd)
                        child(req['path'], int(req['rows']), write_fd)
                    os.close(write_fd)
                    limit = float(req['timeout'])
                    pending[read_fd] = {'id': req['id'], 'pid': pid, 'chunks': [], 'limit': limit, 'deadline': time.monotonic() + limit}
                    sel.register(read_fd, selectors.EVENT_READ, 'child')
            else:
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    pending[key.fd]['chunks'].append(chunk)
                else:
                    finish(key.fd)
        now = time.monotonic()
        for fd in [fd for fd, s in pending.items() if s['deadline'] <= now]:
            finish(fd, 'the preview did not finish within %g s and was killed' % pending[fd]['limit'])


if __name__ == '__main__':
    main()
