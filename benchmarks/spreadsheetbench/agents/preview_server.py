"""Long-lived preview process: pandas and openpyxl are imported once, each preview runs in a forked child.

Protocol: one JSON request per line on stdin, one JSON reply per line on stdout.
  -> {"id": "1", "path": "/abs/input.xlsx", "rows": 5, "timeout": 60}
  <- {"id": "1", "text": "..."}  or  {"id": "1", "error": "..."}

Each request is served by a spare child forked ahead of it: the spare has already previewed a tiny built-in
workbook (a forked child's first preview pays about 10 ms of first-use costs, copy-on-write faults mostly, that this
moves off the request's path) and then waits for its one request. A child that crashes or hangs (killed at its
timeout) fails only its own request; the parent stays warm.
"""
import ctypes
import datetime
import io
import json
import os
import selectors
import signal
import sys
import time
import traceback

import openpyxl
import pandas  # noqa: F401 - pre-imported for the children

from preview import preview


PR_SET_PDEATHSIG = 1


def warm_up_workbook():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(['id', 'name', 'amount', 'when'])
    ws.append([1, 'x', 1.5, datetime.datetime(2024, 1, 1)])
    data = io.BytesIO()
    wb.save(data)
    return data.getvalue()


def spare(request_fd, write_fd, warm_up):
    """A child that readies itself, then serves the one request the parent writes to `request_fd`."""
    # A child never outlives the server (a hung preview of a server that was killed).
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:
        os._exit(1)
    try:
        preview(io.BytesIO(warm_up), 5)
    except Exception:  # noqa: BLE001 - only a warm-up: the request still runs
        pass
    line = b''
    while not line.endswith(b'\n'):
        chunk = os.read(request_fd, 1 << 16)
        if not chunk:
            os._exit(0)  # the server closed: no request will come
        line += chunk
    req = json.loads(line)
    try:
        reply = {'text': preview(req['path'], int(req['rows']))}
    except BaseException as exc:  # noqa: BLE001 - every failure becomes the request's error
        reply = {'error': ''.join(traceback.format_exception_only(type(exc), exc)).strip()}
    data = json.dumps(reply).encode()
    view = memoryview(data)
    while view:
        view = view[os.write(write_fd, view):]
    os._exit(0)


def fork_spare(warm_up):
    request_read, request_write = os.pipe()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(request_write)
        os.close(read_fd)
        spare(request_read, write_fd, warm_up)
    os.close(request_read)
    os.close(write_fd)
    return {'pid': pid, 'request': request_write, 'read': read_fd}


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
    warm_up = warm_up_workbook()
    next_spare = fork_spare(warm_up)

    def live(child):
        """The spare, or a fresh one if it died while waiting (killed from outside): its death is not the request's."""
        pid, _ = os.waitpid(child['pid'], os.WNOHANG)
        if pid == 0:
            return child
        os.close(child['request'])
        os.close(child['read'])
        return fork_spare(warm_up)

    def assign(child, req):
        limit = float(req['timeout'])
        pending[child['read']] = {'id': req['id'], 'pid': child['pid'], 'chunks': [], 'limit': limit, 'deadline': time.monotonic() + limit}
        sel.register(child['read'], selectors.EVENT_READ, 'child')
        try:
            os.write(child['request'], json.dumps({'path': req['path'], 'rows': req['rows']}).encode() + b'\n')
        except OSError:
            pass  # the spare died before its request: its end of file reports it
        os.close(child['request'])

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
                    assign(live(next_spare), req)
                    next_spare = fork_spare(warm_up)  # after the request is on its way: it readies itself meanwhile
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
